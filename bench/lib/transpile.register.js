/**
 * The TypeScript loader of the forked servers (bench/lib/forked-process.fixture.ts): each .ts file is
 * transpiled with the compiler's transpileModule, as `ts-node/register/transpile-only` does, and
 * nothing else. ts-node's register loads its REPL, so Node's `repl` and `domain` modules, and
 * loading `domain` enables an async hook on every promise: profiled under ts-node, the
 * reference app spent ~16 % of its CPU in async_hooks promise hooks that a built app (`node dist`)
 * never runs. Both sides of every benchmark use this loader, so the ratio compares like with like.
 */
'use strict';
/* eslint-disable @typescript-eslint/no-require-imports -- a CommonJS preload for node -r */
const { readFileSync } = require('node:fs');
const ts = require('typescript');

const compilerOptions = {
  module: ts.ModuleKind.CommonJS,
  target: ts.ScriptTarget.ES2022,
  experimentalDecorators: true,
  emitDecoratorMetadata: true,
  esModuleInterop: true,
  sourceMap: false,
  inlineSourceMap: true,
};

require.extensions['.ts'] = function compileTs(module, filename) {
  const { outputText } = ts.transpileModule(readFileSync(filename, 'utf8'), {
    compilerOptions,
    fileName: filename,
  });
  module._compile(outputText, filename);
};
