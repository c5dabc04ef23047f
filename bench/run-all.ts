/**
 * Runs every benchmark in sequence, each in its own process (a crash or leak in one cannot skew
 * the next), and writes results/<name>.json + .md through each benchmark. Usage:
 *   npm run build:libs && npx ts-node --transpile-only bench/run-all.ts [name ...]
 * The benchmarks import @partner-payments/* by package name, i.e. the built dist/ of the libs.
 */
import { spawnSync } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

const ROOT = join(__dirname, '..');
const ALL = ['webhook-ingest', 'auth-single-flight', 'upload-memory', 'client-throughput', 'instrumentation'];

/** Newest mtime under dir for files matching `keep`, 0 when none. */
function newest(dir: string, keep: (f: string) => boolean): number {
  let max = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (!entry.isFile() || !keep(entry.name)) continue;
    max = Math.max(max, statSync(join(entry.parentPath, entry.name)).mtimeMs);
  }
  return max;
}

/** A benchmark of a stale build measures old code: say so loudly (it is not fatal, the lead decides). */
function checkBuild(): void {
  for (const lib of ['partner-payments', 'partner-payments-testing']) {
    const dir = join(ROOT, 'libs', lib);
    const built = newest(join(dir, 'dist'), (f) => f.endsWith('.js'));
    const source = newest(
      join(dir, 'src'),
      (f) => f.endsWith('.ts') && !f.endsWith('.spec.ts') && !f.endsWith('.fixture.ts'),
    );
    if (built === 0) throw new Error(`libs/${lib}/dist is missing: run npm run build:libs first`);
    if (source > built)
      process.stderr.write(`WARNING: libs/${lib}/src is newer than its dist/ (run npm run build:libs)\n`);
  }
}

function main(): void {
  const names = process.argv.length > 2 ? process.argv.slice(2) : ALL;
  const unknown = names.filter((n) => !ALL.includes(n));
  if (unknown.length)
    throw new Error(`unknown benchmark(s): ${unknown.join(', ')} (known: ${ALL.join(', ')})`);
  checkBuild();
  const failed: string[] = [];
  for (const name of names) {
    process.stderr.write(`\n=== ${name} ===\n`);
    const run = spawnSync(
      process.execPath,
      ['-r', 'ts-node/register/transpile-only', join(__dirname, `${name}.bench.ts`)],
      {
        cwd: ROOT,
        stdio: 'inherit',
      },
    );
    if (run.status !== 0) failed.push(`${name} (exit ${run.status ?? run.signal})`);
  }
  if (failed.length) {
    process.stderr.write(`\nfailed: ${failed.join(', ')}\n`);
    process.exit(1);
  }
  process.stderr.write(`\nall ${names.length} benchmarks done; results in bench/results/\n`);
}

try {
  main();
} catch (e) {
  process.stderr.write(`run-all: ${e instanceof Error ? e.message : String(e)}\n`);
  process.exit(2);
}
