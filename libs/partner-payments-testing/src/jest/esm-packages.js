/**
 * The ESM-only packages a NestJS 12 app with @partner-payments/nestjs loads, which Jest's CommonJS
 * runtime must have transpiled (esm-to-cjs.transformer.js), and the transformIgnorePatterns entry
 * for them. Shipped as `@partner-payments/testing/jest/esm-packages` for configs of your own:
 *   transformIgnorePatterns: [esmIgnorePattern([...ESM_PACKAGES, 'your-esm-package'])]
 */
exports.ESM_PACKAGES = [
  '@nestjs',
  'file-type',
  'strtok3',
  'token-types',
  '@tokenizer/inflate',
  'uint8array-extras',
  '@borewit/text-codec',
];

/** A transformIgnorePatterns entry that lets Jest transform the given packages, and no other. */
exports.esmIgnorePattern = function esmIgnorePattern(packages) {
  const names = packages.map((name) => name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
  return `/node_modules/(?!(${names.join('|')})/)`;
};
