/**
 * Jest preset for NestJS 12 apps tested against the partner sandbox:
 *   // jest.config.js (or "jest" in package.json)
 *   module.exports = { preset: '@partner-payments/testing', testRegex: '.*\\.e2e-spec\\.ts$' };
 * or spread it into a config of your own: `{ ...require('@partner-payments/testing/jest-preset'), ... }`.
 *
 * - TypeScript through ts-jest (a peer: install it), with your tsconfig.json.
 * - NestJS 12 and file-type (which @partner-payments/nestjs uses to sniff uploads) ship ESM only;
 *   their `.js` files are transpiled to CommonJS by esm-to-cjs.transformer.js (beside this file).
 *   ESM_PACKAGES lists them; add your own ESM-only packages with
 *   `transformIgnorePatterns: [esmIgnorePattern([...ESM_PACKAGES, 'some-esm-package'])]`.
 */
const { join } = require('node:path');

/** ESM-only packages a NestJS 12 app with @partner-payments/nestjs loads (file-type and its parts). */
const ESM_PACKAGES = [
  '@nestjs',
  'file-type',
  'strtok3',
  'token-types',
  '@tokenizer/inflate',
  'uint8array-extras',
  '@borewit/text-codec',
];

/** A transformIgnorePatterns entry that lets Jest transform the given packages, and no other. */
function esmIgnorePattern(packages) {
  const names = packages.map((name) => name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
  return `/node_modules/(?!(${names.join('|')})/)`;
}

const preset = {
  testEnvironment: 'node',
  transform: {
    '^.+\\.ts$': 'ts-jest',
    '^.+\\.js$': join(__dirname, 'esm-to-cjs.transformer.js'),
  },
  transformIgnorePatterns: [esmIgnorePattern(ESM_PACKAGES)],
};
// Helpers for configs of your own, not Jest options: non-enumerable, so Jest's option check and a
// `{ ...preset }` spread do not see them.
Object.defineProperties(preset, {
  ESM_PACKAGES: { value: ESM_PACKAGES },
  esmIgnorePattern: { value: esmIgnorePattern },
});
module.exports = preset;
