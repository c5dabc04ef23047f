import { Script } from 'node:vm';
// eslint-disable-next-line @typescript-eslint/no-require-imports -- the transformer is a CommonJS file
const transformer = require('./esm-to-cjs.transformer.js') as {
  process(source: string, filename: string): { code: string };
};

describe('esm-to-cjs transformer', () => {
  it("drops an ES module's own `const require = createRequire(import.meta.url)` (a SyntaxError in CommonJS)", () => {
    // The shape of @nestjs/terminus 12's health-check.decorator.js.
    const source = [
      "import { createRequire } from 'node:module';",
      'const require = createRequire(import.meta.url);',
      "export const found = typeof require('node:path').join;",
    ].join('\n');
    const { code } = transformer.process(source, '/x/decorator.js');
    const wrapped = `(function (exports, require, module, __filename, __dirname) {${code}\n})`;
    const run = new Script(wrapped).runInThisContext() as (...args: unknown[]) => void;
    const exports: { found?: string } = {};
    run(exports, require, { exports }, '/x/decorator.js', '/x');
    expect(exports.found).toBe('function');
  });
});
