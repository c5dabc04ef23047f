/**
 * Jest transformer for ESM-only dependencies (NestJS 12 ships `"type": "module"` packages).
 * Jest's CommonJS runtime cannot require(esm) before Node 24.9, so their .js files are
 * transpiled to CommonJS with TypeScript (already a dev dependency). import.meta has no CommonJS
 * form: its url/dirname/filename are rewritten to the CommonJS equivalents first.
 * Wire-up (jest.config.js, both projects):
 *   transform: { '^.+\\.ts$': [...ts-jest...], '^.+\\.js$': '<rootDir>/test/setup/esm-to-cjs.transformer.js' },
 *   transformIgnorePatterns: ['/node_modules/(?!(@nestjs)/)'],
 */
/* eslint-disable @typescript-eslint/no-require-imports -- a CommonJS file loaded by Jest */
const crypto = require('node:crypto');
const ts = require('typescript');

const VERSION = '1';

function rewriteImportMeta(source) {
  return source
    .replace(/\bimport\.meta\.url\b/g, 'require("node:url").pathToFileURL(__filename).href')
    .replace(/\bimport\.meta\.dirname\b/g, '__dirname')
    .replace(/\bimport\.meta\.filename\b/g, '__filename')
    .replace(/\bimport\.meta\b/g, '({ url: require("node:url").pathToFileURL(__filename).href })');
}

module.exports = {
  process(source, filename) {
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
  },
  getCacheKey(source, filename) {
    return crypto
      .createHash('sha256')
      .update(VERSION)
      .update(ts.version)
      .update(filename)
      .update(source)
      .digest('hex');
  },
};
