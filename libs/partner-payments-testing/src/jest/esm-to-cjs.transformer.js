/**
 * Jest transformer for ESM-only dependencies (NestJS 12 ships `"type": "module"` packages).
 * Jest's CommonJS module registry implements require() itself, so Node's require(esm) does not help:
 * it loads ES modules only on Node 24.9+ started with --experimental-vm-modules. Everywhere else
 * (Node 20, 22, 24 without the flag) their .js files are transpiled to CommonJS with TypeScript (a
 * peer of this package: ts-jest needs it anyway). import.meta has no CommonJS form: its
 * url/dirname/filename are rewritten to the CommonJS equivalents first.
 *
 * Shipped as `@partner-payments/testing/jest/esm-to-cjs` and used by the preset
 * (`preset: '@partner-payments/testing'`, see jest-preset.js beside this file). The repository's own
 * jest.config.js uses this same file. Wire-up by hand:
 *   transform: { '^.+\\.ts$': 'ts-jest', '^.+\\.js$': '@partner-payments/testing/jest/esm-to-cjs' },
 *   transformIgnorePatterns: ['/node_modules/(?!(@nestjs)/)'],
 */
/* eslint-disable @typescript-eslint/no-require-imports -- a CommonJS file loaded by Jest */
const crypto = require('node:crypto');
const ts = require('typescript');

// TypeScript 7 (the native compiler) ships no JavaScript compiler API (no transpileModule), and
// ts-jest needs typescript <7 as well: say so at load rather than fail on the first file.
if (typeof ts.transpileModule !== 'function') {
  throw new Error(
    `@partner-payments/testing/jest/esm-to-cjs needs TypeScript's compiler API (typescript >=5.0 <7, ` +
      `as ts-jest does); the typescript it found is ${ts.version}, which has none. ` +
      'Install typescript 5 or 6 for Jest (npm i -D typescript@6).',
  );
}

const VERSION = '3';

/**
 * An ES module that wants `require` makes one (`const require = createRequire(import.meta.url)`,
 * e.g. @nestjs/terminus's HealthCheck decorator); in CommonJS `require` is already a parameter of
 * the module wrapper and a second declaration is a SyntaxError. The wrapper's own `require`
 * resolves from the same file, so the declaration is dropped.
 */
const CREATE_REQUIRE =
  /^[ \t]*(?:const|let|var)[ \t]+require[ \t]*=[ \t]*createRequire\(import\.meta\.url\);?[ \t]*$/gm;

function rewriteImportMeta(source) {
  return source
    .replace(CREATE_REQUIRE, '')
    .replace(/\bimport\.meta\.url\b/g, 'require("node:url").pathToFileURL(__filename).href')
    .replace(/\bimport\.meta\.dirname\b/g, '__dirname')
    .replace(/\bimport\.meta\.filename\b/g, '__filename')
    .replace(/\bimport\.meta\b/g, '({ url: require("node:url").pathToFileURL(__filename).href })');
}

// `exports.x =`: the form Node's CommonJS lexer detects, so ES modules can import them by name.
exports.process = function process(source, filename) {
  const output = ts.transpileModule(rewriteImportMeta(source), {
    fileName: filename,
    compilerOptions: {
      module: ts.ModuleKind.CommonJS,
      target: ts.ScriptTarget.ES2022,
      allowJs: true,
      esModuleInterop: true,
      inlineSourceMap: false,
    },
  });
  return { code: output.outputText };
};

exports.getCacheKey = function getCacheKey(source, filename) {
  return crypto
    .createHash('sha256')
    .update(VERSION)
    .update(ts.version)
    .update(filename)
    .update(source)
    .digest('hex');
};
