/**
 * The types of esm-to-cjs.transformer.js: a Jest synchronous transformer, shipped as
 * `@partner-payments/testing/jest/esm-to-cjs`.
 */
/** Transpiles one ES module file to CommonJS. */
export declare function process(source: string, filename: string): { code: string };
/** Changes with the file, its path, this transformer and the TypeScript version. */
export declare function getCacheKey(source: string, filename: string): string;
