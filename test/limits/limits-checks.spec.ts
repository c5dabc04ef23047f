/**
 * Each check of limits.spec.ts fails on a planted offender: a scratch git repository in a temp
 * folder with one offending file or folder, and passes once the offender is gone.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { historyMarkers, longFiles, misnamedFiles, wideFolders } from './file-limits.util';
import { compilerOptionsOf, importCycles, importGraph, pathTargets } from './import-cycles.util';
import { codeFiles, repoFiles } from './repo-files.util';

let root: string;

function plant(files: Record<string, string>): void {
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text);
  }
}

const lines = (count: number) => 'export const x = 1;\n'.repeat(count);

function cyclesIn(): string[] {
  const options = compilerOptionsOf(root);
  const ts = codeFiles(repoFiles(root)).filter((path) => path.endsWith('.ts'));
  return importCycles(importGraph(root, ts, options));
}

beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'limits-'));
  execFileSync('git', ['init', '-q'], { cwd: root });
  plant({
    'tsconfig.json': JSON.stringify({
      compilerOptions: {
        module: 'nodenext',
        moduleResolution: 'nodenext',
        paths: { '@acme/pkg': ['./libs/pkg/src/index.ts'] },
      },
    }),
    '.gitignore': 'dist/\n',
  });
});

afterEach(() => rmSync(root, { recursive: true, force: true }));

describe('the import-cycle check', () => {
  it('reports a cycle through relative imports as a chain, type-only imports included', () => {
    plant({
      'libs/pkg/src/a.util.ts': "import { b } from './b.util';\nexport const a = b;\n",
      'libs/pkg/src/b.util.ts': "import type { C } from './c.types';\nexport const b: C = 1;\n",
      'libs/pkg/src/c.types.ts': "import { a } from './a.util';\nexport type C = typeof a;\n",
    });
    expect(cyclesIn()).toEqual([
      'libs/pkg/src/a.util.ts -> libs/pkg/src/b.util.ts -> libs/pkg/src/c.types.ts -> libs/pkg/src/a.util.ts',
    ]);
  });

  it("follows a package's name through tsconfig paths, re-exports and import()", () => {
    plant({
      'libs/pkg/src/index.ts': "export { helper } from './helper.util';\n",
      'libs/pkg/src/helper.util.ts': "export const helper = () => import('../../../apps/app/src/main.js');\n",
      'apps/app/src/main.ts': "import { helper } from '@acme/pkg';\nvoid helper;\n",
    });
    expect(cyclesIn()).toEqual([
      'apps/app/src/main.ts -> libs/pkg/src/index.ts -> libs/pkg/src/helper.util.ts -> apps/app/src/main.ts',
    ]);
  });

  it('passes a tree without a cycle, and leaves files outside the code folders out', () => {
    plant({
      'libs/pkg/src/a.util.ts': "import { b } from './b.util';\nexport const a = b;\n",
      'libs/pkg/src/b.util.ts': 'export const b = 1;\n',
      'other/x.util.ts': "import { y } from './y.util';\nexport const x = y;\n",
      'other/y.util.ts': "import { x } from './x.util';\nexport const y = x;\n",
      'libs/pkg/dist/c.util.ts': "import { c } from './c.util';\nexport const d = c;\n",
    });
    expect(cyclesIn()).toEqual([]);
  });
});

describe('the length check', () => {
  it('reports a source file of 250 lines and a test file of 401, not one of 249 and 400', () => {
    plant({
      'libs/pkg/src/long.util.ts': lines(250),
      'libs/pkg/src/short.util.ts': lines(249),
      'test/long.e2e-spec.ts': lines(401),
      'test/short.e2e-spec.ts': lines(400),
      'libs/pkg/src/long.util.spec.ts': lines(401),
    });
    expect(longFiles(root, codeFiles(repoFiles(root)))).toEqual([
      'libs/pkg/src/long.util.spec.ts: 401 lines (a test file: at most 400)',
      'libs/pkg/src/long.util.ts: 250 lines (a source file: under 250)',
      'test/long.e2e-spec.ts: 401 lines (a test file: at most 400)',
    ]);
  });
});

describe('the folder-width check', () => {
  it('reports a folder of 21 files of any kind, not one of 20, nor files in its subfolders', () => {
    const many = (dir: string, count: number, ext: string) =>
      Object.fromEntries(Array.from({ length: count }, (_, i) => [`${dir}/f${i}.${ext}`, 'x\n']));
    plant({ ...many('bench/results', 21, 'json'), ...many('test/wide', 20, 'md') });
    plant(many('test/wide/nested', 5, 'ts'));
    plant(many('libs/pkg/dist', 30, 'js'));
    expect(wideFolders(repoFiles(root))).toEqual(['bench/results/: 21 files (at most 20)']);
  });
});

describe('the naming check', () => {
  it('reports a file without a role, with an unknown role or not in kebab-case', () => {
    plant({
      'libs/pkg/src/index.ts': '',
      'libs/pkg/src/helpers.ts': '',
      'libs/pkg/src/payout.helper.ts': '',
      'libs/pkg/src/payoutRules.rules.ts': '',
      'libs/pkg/src/payout.rules.ts': '',
      'libs/pkg/src/payout.rules.spec.ts': '',
      'test/app/payouts.e2e-spec.ts': '',
      'apps/app/src/main.ts': '',
      'scripts/pg-throwaway.ts': '',
    });
    const entryPoints = pathTargets(root, compilerOptionsOf(root));
    expect(misnamedFiles(codeFiles(repoFiles(root)), entryPoints)).toEqual([
      'libs/pkg/src/helpers.ts: no role (<name>.<role>.ts)',
      'libs/pkg/src/payout.helper.ts: "helper" is not a role of CONTRIBUTING\'s table',
      'libs/pkg/src/payoutRules.rules.ts: not kebab-case',
    ]);
  });
});

describe('the history check', () => {
  it('reports issue, defect and stop numbers and DESIGN in libs and apps, in any text file', () => {
    plant({
      'apps/app/.env.example': '# --- Access (issue 9 defect 8)\nTOKEN=\n',
      'libs/pkg/src/a.util.ts': '// See DESIGN.md\nexport const a = 1;\n',
      'libs/pkg/README.md': 'Fixed at stop 3.\n',
      'libs/pkg/src/b.util.ts': '// a stop reason, an issue with 3 fields\nexport const b = 1;\n',
      'test/c.e2e-spec.ts': '// issue 12\n',
      'libs/pkg/logo.png': 'PNG\0issue 1',
    });
    expect(historyMarkers(root, repoFiles(root))).toEqual([
      'apps/app/.env.example:1: # --- Access (issue 9 defect 8)',
      'libs/pkg/README.md:1: Fixed at stop 3.',
      'libs/pkg/src/a.util.ts:1: // See DESIGN.md',
    ]);
  });
});
