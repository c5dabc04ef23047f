/**
 * Writes the packages' API reference from their public surface (each entry point, `src/index.ts`
 * and a subpath's `src/<subpath>.ts`, with its JSDoc) with TypeDoc, one Markdown page an entry point
 * under docs/api/: `npm run docs:api`. `-- --check`
 * writes nothing and exits 1 when a page differs from what the code gives, as
 * test/docs/api-reference.spec.ts does in CI. TypeDoc warnings (a broken {@link}, an unknown tag)
 * fail both.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const root = join(__dirname, '..');

/** The subpaths of @partner-payments/nestjs (package.json `exports`), each `src/<subpath>.ts`. */
export const NESTJS_SUBPATHS = [
  'models',
  'errors',
  'webhooks',
  'inbox',
  'transport',
  'observability',
] as const;

interface ApiPage {
  name: string;
  dir: string;
  /** The entry point, relative to `dir`. */
  entry: string;
  page: string;
}

export const API_PAGES: readonly ApiPage[] = [
  {
    name: '@partner-payments/nestjs',
    dir: 'libs/partner-payments',
    entry: 'src/index.ts',
    page: 'docs/api/nestjs.md',
  },
  ...NESTJS_SUBPATHS.map((sub) => ({
    name: `@partner-payments/nestjs/${sub}`,
    dir: 'libs/partner-payments',
    entry: `src/${sub}.ts`,
    page: `docs/api/nestjs-${sub}.md`,
  })),
  {
    name: '@partner-payments/testing',
    dir: 'libs/partner-payments-testing',
    entry: 'src/index.ts',
    page: 'docs/api/testing.md',
  },
  {
    name: '@partner-payments/typeorm',
    dir: 'libs/partner-payments-typeorm',
    entry: 'src/index.ts',
    page: 'docs/api/typeorm.md',
  },
];

/** The page TypeDoc makes for one package, as text. */
export function generatePage(pkg: ApiPage): string {
  const out = mkdtempSync(join(tmpdir(), 'api-reference-'));
  try {
    execFileSync(
      process.execPath,
      [
        join(root, 'node_modules/typedoc/bin/typedoc'),
        ...['--options', join(root, 'typedoc.json')],
        ...['--tsconfig', join(root, pkg.dir, 'tsconfig.lib.json')],
        ...['--entryPoints', join(root, pkg.dir, pkg.entry)],
        ...['--name', pkg.name, '--out', out, '--treatWarningsAsErrors'],
      ],
      { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    return readFileSync(join(out, 'README.md'), 'utf8');
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
}

if (require.main === module) {
  const check = process.argv.includes('--check');
  let stale = 0;
  for (const pkg of API_PAGES) {
    const page = generatePage(pkg);
    const path = join(root, pkg.page);
    const current = existsSync(path) ? readFileSync(path, 'utf8') : '';
    if (current === page) continue;
    if (check) {
      console.error(`${pkg.page} differs from the code; run npm run docs:api`);
      stale++;
    } else {
      mkdirSync(join(root, 'docs/api'), { recursive: true });
      writeFileSync(path, page);
      console.log(`${pkg.page} written`);
    }
  }
  if (stale) process.exit(1);
}
