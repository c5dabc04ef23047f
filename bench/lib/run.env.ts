/**
 * What every result file carries, so a number is never read without its machine and its load:
 * colleagues may be running tests on the same 2 cores while a benchmark runs.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, totalmem } from 'node:os';
import { join } from 'node:path';

export const RESULTS_DIR = join(__dirname, '..', 'results');

export interface RunEnvironment {
  date: string;
  node: string;
  platform: string;
  cpuCount: number;
  cpuModel: string;
  totalMemMb: number;
  gitCommit: string | null;
  /** 1, 5 and 15 minute load averages, at start and at end of the run. */
  loadAverageStart: number[];
  loadAverageEnd?: number[];
}

function gitCommit(): string | null {
  try {
    return execFileSync('git', ['rev-parse', '--short', 'HEAD'], { encoding: 'utf8' }).trim();
  } catch {
    return null;
  }
}

const round2 = (n: number) => Math.round(n * 100) / 100;

export function captureEnvironment(): RunEnvironment {
  return {
    date: new Date().toISOString(),
    node: process.version,
    platform: `${process.platform}-${process.arch}`,
    cpuCount: cpus().length,
    cpuModel: cpus()[0]?.model ?? 'unknown',
    totalMemMb: Math.round(totalmem() / 1048576),
    gitCommit: gitCommit(),
    loadAverageStart: loadavg().map(round2),
  };
}

export interface BenchResult<P, R> {
  name: string;
  environment: RunEnvironment;
  parameters: P;
  results: R;
  /** What a reader must know before trusting the numbers. */
  notes: string[];
}

/** Writes results/<name>.json and results/<name>.md (a header line plus the given table). */
export function writeResults<P, R>(result: BenchResult<P, R>, markdownTable: string): void {
  const loadAverageEnd = loadavg().map(round2);
  result.environment.loadAverageEnd = loadAverageEnd;
  mkdirSync(RESULTS_DIR, { recursive: true });
  writeFileSync(join(RESULTS_DIR, `${result.name}.json`), `${JSON.stringify(result, null, 2)}\n`);
  const env = result.environment;
  const md = [
    `# ${result.name}`,
    '',
    `${env.date} · Node ${env.node} · ${env.cpuCount} × ${env.cpuModel} · commit ${env.gitCommit ?? '?'} · ` +
      `load average ${env.loadAverageStart.join(' / ')} at start, ${loadAverageEnd.join(' / ')} at end`,
    '',
    markdownTable.trim(),
    '',
    ...result.notes.map((n) => `- ${n}`),
    '',
  ].join('\n');
  writeFileSync(join(RESULTS_DIR, `${result.name}.md`), md);
  process.stdout.write(`${md}\n`);
}

/** A Markdown table from a header row and data rows. */
export function table(header: string[], rows: (string | number)[][]): string {
  const line = (cells: (string | number)[]) => `| ${cells.join(' | ')} |`;
  return [line(header), line(header.map(() => '---')), ...rows.map(line)].join('\n');
}

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Fails the whole benchmark if it has not stopped by itself in time (every bench is bounded). */
export function hardDeadline(ms: number, what: string): NodeJS.Timeout {
  const t = setTimeout(() => {
    process.stderr.write(`${what}: hard deadline of ${ms} ms passed, aborting\n`);
    process.exit(3);
  }, ms);
  t.unref();
  return t;
}
