/**
 * What the runner writes: the machine line (so a figure is never read without its machine, its
 * load and its commit) and latest.md, the table bench/README.md copies.
 */
import { execFileSync } from 'node:child_process';
import { cpus, loadavg } from 'node:os';
import type { BenchFigure } from './contract.util';

export interface Machine {
  date: string;
  node: string;
  cores: number;
  cpuModel: string;
  commit: string;
  /** 1, 5 and 15 minute load averages when the run started and ended. */
  loadAverageStart: number[];
  loadAverageEnd?: number[];
}

export interface BenchOutcome {
  bench: string;
  exitCode: number;
  durationS: number;
  /** 1-minute load average when the script started and ended. */
  loadStart: number;
  loadEnd: number;
  figures: BenchFigure[];
}

export interface RunResult extends Machine {
  quick: boolean;
  /** Benchmarks in the list whose script does not exist (yet) on this branch. */
  absent: string[];
  benches: BenchOutcome[];
}

function git(root: string, args: string[]): string {
  try {
    return execFileSync('git', args, { cwd: root, encoding: 'utf8' }).trim();
  } catch {
    return '';
  }
}

export function captureMachine(root: string): Machine {
  const dirty = git(root, ['status', '--porcelain', '--untracked-files=no']) !== '';
  return {
    date: new Date().toISOString(),
    node: process.version,
    cores: cpus().length,
    cpuModel: cpus()[0]?.model.trim() ?? 'unknown',
    commit: `${git(root, ['rev-parse', '--short', 'HEAD']) || '?'}${dirty ? ' (uncommitted changes)' : ''}`,
    loadAverageStart: loadavg().map((n) => Math.round(n * 100) / 100),
  };
}

const cell = (v: number | null, unit = ''): string =>
  v === null || Number.isNaN(v) ? '—' : `${v.toLocaleString('en')}${unit ? ` ${unit}` : ''}`;

/** A row with nothing to meet (a figure shown for context: peak memory, the A/A control). */
export const reportedOnly = (target: string): boolean => target.startsWith('reported');

export function renderMarkdown(r: RunResult): string {
  const rows = r.benches.flatMap((b) =>
    b.figures.map((f) => [
      f.figure,
      cell(f.ours, f.unit),
      cell(f.baseline, f.unit),
      f.ratio === null ? '—' : f.ratio.toFixed(3),
      f.target,
      reportedOnly(f.target) ? '—' : f.pass ? 'yes' : '**no**',
      String(f.rounds),
      `${b.loadStart}→${b.loadEnd}`,
    ]),
  );
  const line = (cells: string[]) => `| ${cells.map((c) => c.replace(/\|/g, '\\|')).join(' | ')} |`;
  const header = ['figure', 'ours', 'baseline', 'ratio', 'target', 'pass', 'rounds', 'load (1 min)'];
  const notes = r.benches.flatMap((b) => b.figures.map((f) => `- **${f.figure}**: ${f.notes}`));
  return [
    `# Benchmarks${r.quick ? ' (quick smoke run: not comparable)' : ''}`,
    '',
    `${r.date} · ${r.cores} cores (${r.cpuModel}) · Node ${r.node} · commit ${r.commit} · load average ` +
      `${r.loadAverageStart.join(' / ')} at start, ${(r.loadAverageEnd ?? []).join(' / ')} at end (1 / 5 / 15 min)`,
    '',
    line(header),
    line(header.map(() => '---')),
    ...rows.map(line),
    '',
    ...(r.absent.length ? [`Not run (no script on this branch): ${r.absent.join(', ')}.`, ''] : []),
    "Ratio: the median of the per-round ratios ours/baseline (rounds interleaved). Load: the 1-minute load average when the figure's script started and ended.",
    '',
    ...notes,
    '',
  ].join('\n');
}
