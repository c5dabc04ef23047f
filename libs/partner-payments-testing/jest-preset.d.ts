/**
 * The Jest preset (src/jest/jest-preset.js), typed for a `jest.config.ts` that spreads it:
 * `{ ...require('@partner-payments/testing/jest-preset'), testRegex: '.*\\.e2e-spec\\.ts$' }`.
 */
export declare const testEnvironment: 'node';
/** ts-jest for `.ts`, the ESM-to-CommonJS transformer for `.js` (NestJS 12 ships ESM only). */
export declare const transform: Record<string, string>;
export declare const transformIgnorePatterns: string[];
