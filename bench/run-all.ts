/**
 * The benchmark runner (npm run bench): runs every bench/<name>.bench.ts that exists, one at a time,
 * each in its own process (a crash or a leak in one cannot skew the next), reads the JSON object
 * each prints as its last stdout line (bench/README.md, "Contract") and writes
 * bench/results/latest.json and latest.md. Usage:
 *   npm run bench [-- --check] [-- --quick] [-- name ...]
 * --check: exit 1 when a target is missed or a script failed. --quick: the scripts' smoke mode,
 * written to results/quick.* (git-ignored) so a smoke run never replaces the latest real figures.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import type { BenchFigure, BenchReport } from './lib/contract.util';
import {
  captureMachine,
  renderMarkdown,
  reportedOnly,
  type BenchOutcome,
} from './lib/results-writer.fixture';

const ROOT = join(__dirname, '..');
/** Every benchmark, in run order. */
export const BENCHMARKS = [
  'client',
  'webhook-ingest',
  'inbox-drain',
  'upload',
  'reconciliation',
  'replicas',
  'instrumentation',
];

/** Newest mtime under dir for files matching `keep`, 0 when none. */
function newest(dir: string, keep: (f: string) => boolean): number {
  if (!existsSync(dir)) return 0;
  let max = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (!entry.isFile() || !keep(entry.name)) continue;
    max = Math.max(max, statSync(join(entry.parentPath, entry.name)).mtimeMs);
  }
  return max;
}

/** The scripts import the libs by package name, i.e. their dist/: a stale build measures old code. */
function checkBuild(): void {
  for (const lib of ['partner-payments', 'partner-payments-testing']) {
    const dir = join(ROOT, 'libs', lib);
    const built = newest(join(dir, 'dist'), (f) => f.endsWith('.js'));
    const source = newest(join(dir, 'src'), (f) => f.endsWith('.ts') && !f.endsWith('.spec.ts'));
    if (built === 0) throw new Error(`libs/${lib}/dist is missing: run npm run build:libs first`);
    if (source > built)
      process.stderr.write(`WARNING: libs/${lib}/src is newer than its dist/ (run npm run build:libs)\n`);
  }
}

function isReport(v: unknown): v is BenchReport {
  const r = v as BenchReport;
  return typeof r?.bench === 'string' && Array.isArray(r.figures);
}

/** Runs one script; progress (its stderr) passes through, its stdout is kept for the last line. */
function runScript(name: string, quick: boolean): Promise<BenchOutcome> {
  const load = (): number => Math.round(loadavg()[0] * 100) / 100;
  const loadStart = load();
  const started = Date.now();
  return new Promise((resolve) => {
    const child = spawn(
      process.execPath,
      [
        // The loader the forked servers use (lib/transpile.register.js): ts-node's register loads
        // `domain`, whose promise hook taxes every promise of a script that measures its own CPU.
        '-r',
        join(__dirname, 'lib', 'transpile.register.js'),
        join(__dirname, `${name}.bench.ts`),
        ...(quick ? ['--quick'] : []),
      ],
      { cwd: ROOT, stdio: ['ignore', 'pipe', 'inherit'] },
    );
    let out = '';
    child.stdout.on('data', (c: Buffer) => (out += c.toString()));
    child.once('exit', (code, signal) => {
      const base = {
        bench: name,
        exitCode: code ?? -1,
        durationS: (Date.now() - started) / 1000,
        loadStart,
        loadEnd: load(),
      };
      let report: unknown = null;
      try {
        report = JSON.parse(out.trim().split('\n').pop() ?? '');
      } catch {
        report = null;
      }
      if (code === 0 && isReport(report)) return resolve({ ...base, figures: report.figures });
      const failed: BenchFigure = {
        figure: `${name}: the script failed`,
        unit: '',
        ours: NaN,
        baseline: null,
        ratio: null,
        target: 'runs to the end and prints its figures',
        pass: false,
        rounds: 0,
        notes: `exit ${code ?? signal}; ${isReport(report) ? 'figures printed but the exit code is not 0' : 'no JSON report on the last stdout line'}`,
      };
      resolve({ ...base, figures: [failed] });
    });
  });
}

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  const check = args.includes('--check');
  const quick = args.includes('--quick');
  const names = args.filter((a) => !a.startsWith('--'));
  const unknown = names.filter((n) => !BENCHMARKS.includes(n));
  if (unknown.length)
    throw new Error(`unknown benchmark(s): ${unknown.join(', ')} (known: ${BENCHMARKS.join(', ')})`);
  checkBuild();
  const wanted = names.length ? names : BENCHMARKS;
  const present = wanted.filter((n) => existsSync(join(__dirname, `${n}.bench.ts`)));
  const absent = wanted.filter((n) => !present.includes(n));
  const machine = captureMachine(ROOT);
  const outcomes: BenchOutcome[] = [];
  for (const name of present) {
    process.stderr.write(`\n=== ${name} (load ${loadavg()[0].toFixed(2)}) ===\n`);
    outcomes.push(await runScript(name, quick));
  }
  machine.loadAverageEnd = loadavg().map((n) => Math.round(n * 100) / 100);
  const result = { ...machine, quick, absent, benches: outcomes };
  const dir = join(__dirname, 'results');
  mkdirSync(dir, { recursive: true });
  const stem = quick ? 'quick' : 'latest';
  writeFileSync(join(dir, `${stem}.json`), `${JSON.stringify(result, null, 2)}\n`);
  const md = renderMarkdown(result);
  writeFileSync(join(dir, `${stem}.md`), md);
  process.stdout.write(md);
  const figures = outcomes.flatMap((o) => o.figures).filter((f) => !reportedOnly(f.target));
  const missed = figures.filter((f) => !f.pass);
  process.stderr.write(
    `\n${figures.length - missed.length}/${figures.length} targets met; results in bench/results/${stem}.{json,md}\n`,
  );
  if (check && missed.length) {
    process.stderr.write(`missed: ${missed.map((f) => f.figure).join('; ')}\n`);
    process.exit(1);
  }
}

main().catch((e: unknown) => {
  process.stderr.write(`run-all: ${e instanceof Error ? e.message : String(e)}\n`);
  process.exit(2);
});
