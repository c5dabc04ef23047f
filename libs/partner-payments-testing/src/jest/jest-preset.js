/**
 * Jest preset for NestJS 12 apps tested against the partner sandbox:
 *   // jest.config.js (or "jest" in package.json)
 *   module.exports = { preset: '@partner-payments/testing', testRegex: '.*\\.e2e-spec\\.ts$' };
 * or spread it into a config of your own: `{ ...require('@partner-payments/testing/jest-preset'), ... }`.
 *
 * - TypeScript through ts-jest (a peer: install it), with your tsconfig.json.
 * - NestJS 12 and file-type (which @partner-payments/nestjs uses to sniff uploads) ship ESM only;
 *   their `.js` files are transpiled to CommonJS by esm-to-cjs.transformer.js (beside this file).
 *   ESM_PACKAGES (`@partner-payments/testing/jest/esm-packages`) lists them; add your own ESM-only
 *   packages with `transformIgnorePatterns: [esmIgnorePattern([...ESM_PACKAGES, 'some-esm-package'])]`.
 */
const { join } = require('node:path');

const { ESM_PACKAGES, esmIgnorePattern } = require('./esm-packages.js');

// One `exports.x =` a Jest option: the form Node's CommonJS lexer detects, so an ES module's named
// import (`import { transform } from '@partner-payments/testing/jest-preset'`) finds what the types
// promise.
exports.testEnvironment = 'node';
exports.transform = {
  '^.+\\.ts$': 'ts-jest',
  '^.+\\.js$': join(__dirname, 'esm-to-cjs.transformer.js'),
};
exports.transformIgnorePatterns = [esmIgnorePattern(ESM_PACKAGES)];
