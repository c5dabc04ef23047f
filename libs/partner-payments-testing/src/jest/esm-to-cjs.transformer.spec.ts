import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
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

  it('refuses, by name, a typescript without the compiler API (TypeScript 7)', () => {
    // TypeScript 7's package entry is lib/version.cjs: a version and nothing else.
    const dir = mkdtempSync(join(tmpdir(), 'esm-to-cjs-'));
    try {
      const tsDir = join(dir, 'node_modules', 'typescript');
      mkdirSync(join(tsDir, 'lib'), { recursive: true });
      writeFileSync(
        join(tsDir, 'package.json'),
        JSON.stringify({ name: 'typescript', version: '7.0.2', main: 'lib/version.cjs' }),
      );
      writeFileSync(
        join(tsDir, 'lib', 'version.cjs'),
        "exports.version = '7.0.2';\nexports.versionMajorMinor = '7.0';\n",
      );
      copyFileSync(join(__dirname, 'esm-to-cjs.transformer.js'), join(dir, 'transformer.js'));
      // Loaded by Node in a child process, as Jest loads a transformer: it resolves from the copy.
      const child = spawnSync(process.execPath, ['-e', "require('./transformer.js')"], {
        cwd: dir,
        encoding: 'utf8',
      });
      expect(child.status).not.toBe(0);
      expect(child.stderr).toMatch(/typescript >=5\.0 <7.*7\.0\.2/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
