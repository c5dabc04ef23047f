/**
 * Writes the packages' API reference from their public surface (each `src/index.ts` and its JSDoc)
 * with TypeDoc, one Markdown page a package under docs/api/: `npm run docs:api`. `-- --check`
 * writes nothing and exits 1 when a page differs from what the code gives, as
 * test/docs/api-reference.spec.ts does in CI. TypeDoc warnings (a broken {@link}, an unknown tag)
 * fail both.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const root = join(__dirname, '..');

export const API_PAGES = [
  { name: '@partner-payments/nestjs', dir: 'libs/partner-payments', page: 'docs/api/nestjs.md' },
  { name: '@partner-payments/testing', dir: 'libs/partner-payments-testing', page: 'docs/api/testing.md' },
  { name: '@partner-payments/typeorm', dir: 'libs/partner-payments-typeorm', page: 'docs/api/typeorm.md' },
] as const;

/** The page TypeDoc makes for one package, as text. */
export function generatePage(pkg: (typeof API_PAGES)[number]): string {
  const out = mkdtempSync(join(tmpdir(), 'api-reference-'));
  try {
    execFileSync(
      process.execPath,
      [
        join(root, 'node_modules/typedoc/bin/typedoc'),
        ...['--options', join(root, 'typedoc.json')],
        ...['--tsconfig', join(root, pkg.dir, 'tsconfig.lib.json')],
        ...['--entryPoints', join(root, pkg.dir, 'src/index.ts')],
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
