/**
 * The script side of the benchmark contract (bench/README.md): every `*.bench.ts` prints
 * its figures as ONE JSON object on the last line of stdout; everything else goes to stderr, so the
 * runner (run-all.ts) can read the result without parsing progress.
 */
import { loadavg } from 'node:os';

export interface BenchFigure {
  /** Human name, as in the table. */
  figure: string;
  unit: string;
  ours: number;
  baseline: number | null;
  ratio: number | null;
  /** The target as written in the issue, e.g. "≥ 0.95". */
  target: string;
  pass: boolean;
  rounds: number;
  /** Extra facts: p99, rows vs answers, peak RSS, load average while measured... */
  notes: string;
}

export interface BenchReport {
  bench: string;
  figures: BenchFigure[];
}

/** True when the script was started with --quick (fewer, shorter rounds: a smoke run). */
export const QUICK = process.argv.includes('--quick');

/** The last stdout line: the only thing a benchmark writes to stdout. */
export function emitReport(report: BenchReport): void {
  process.stdout.write(`${JSON.stringify(report)}\n`);
}

/** Progress on stderr, timestamped, so a slow step is visible while the result goes to stdout. */
export function progress(name: string, message: string): void {
  process.stderr.write(`[${name}] ${new Date().toISOString().slice(11, 19)} ${message}\n`);
}

export function median(xs: readonly number[]): number {
  if (xs.length === 0) return NaN;
  const s = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 ? s[mid] : (s[mid - 1] + s[mid]) / 2;
}

/** The q-quantile (0..1) by nearest rank. */
export function quantile(xs: readonly number[], q: number): number {
  if (xs.length === 0) return NaN;
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.max(0, Math.ceil(q * s.length) - 1))];
}

/** Rounded to `digits` decimals (figures are read by people; 3 significant decimals are enough). */
export const round = (n: number, digits = 2): number => {
  const f = 10 ** digits;
  return Math.round(n * f) / f;
};

/** The 1-minute load average now, to put beside a figure measured now. */
export const load1 = (): number => round(loadavg()[0]);

/** Runs fn with the 1-minute load average before and after, for the figure's notes. */
export async function withLoad<T>(fn: () => Promise<T>): Promise<{ value: T; load: string }> {
  const before = load1();
  const value = await fn();
  return { value, load: `load ${before}→${load1()}` };
}

/** Fails the whole benchmark if it has not stopped by itself in time (every bench is bounded). */
export function hardDeadline(ms: number, what: string): NodeJS.Timeout {
  const t = setTimeout(() => {
    process.stderr.write(`${what}: hard deadline of ${ms} ms passed, aborting\n`);
    process.exit(3);
  }, ms);
  t.unref();
  return t;
}
