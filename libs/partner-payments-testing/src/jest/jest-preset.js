/**
 * Jest preset for NestJS 12 apps tested against the partner sandbox:
 *   // jest.config.js (or "jest" in package.json)
 *   module.exports = { preset: '@partner-payments/testing', testRegex: '.*\\.e2e-spec\\.ts$' };
 * or spread it into a config of your own: `{ ...require('@partner-payments/testing/jest-preset'), ... }`.
 *
 * - TypeScript through ts-jest (a peer: install it), with your tsconfig.json.
 * - NestJS 12 ships ESM only; the `.js` files of `node_modules/@nestjs/*` are transpiled to CommonJS
 *   by esm-to-cjs.transformer.js (beside this file). Add other ESM-only packages to the negative
 *   lookahead of transformIgnorePatterns, e.g. '/node_modules/(?!(@nestjs|some-esm-package)/)'.
 */
const { join } = require('node:path');

// One `exports.x =` a key: the form Node's CommonJS lexer detects, so an ES module's named import
// (`import { transform } from '@partner-payments/testing/jest-preset'`) finds what the types promise.
exports.testEnvironment = 'node';
exports.transform = {
  '^.+\\.ts$': 'ts-jest',
  '^.+\\.js$': join(__dirname, 'esm-to-cjs.transformer.js'),
};
exports.transformIgnorePatterns = ['/node_modules/(?!(@nestjs)/)'];
