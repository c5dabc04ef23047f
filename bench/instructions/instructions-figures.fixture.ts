/**
 * The cost per operation of each side of bench/instructions/instructions.ts, from the counts of
 * its processes (instructions-count.fixture.ts), and the figures made of them.
 */
import { cpus } from 'node:os';
import { progress, type BenchFigure } from '../lib/contract.util';
import { NAME, REPEAT, type Count } from './instructions-count.fixture';

/** Runs the jobs two at a time (the counts do not depend on what else runs). */
async function pool<T>(jobs: Array<() => Promise<T>>, width: number): Promise<T[]> {
  const out: T[] = new Array<T>(jobs.length);
  let next = 0;
  await Promise.all(
    Array.from({ length: width }, async () => {
      while (next < jobs.length) {
        const i = next++;
        out[i] = await jobs[i]();
      }
    }),
  );
  return out;
}

/**
 * A group's short and long runs: how many operations, and what one is called. With `gcCycles`,
 * one run a side instead, counted over that many whole cycles of major GCs (the child picks the
 * window and says how many operations it held; `long` is then the cap on them).
 */
export interface Runs {
  short: number;
  long: number;
  unit: 'call' | 'delivery';
  gcCycles?: number;
}

/** How a figure's window was counted, for its notes. */
function windowOf(runs: Runs): string {
  const ops = runs.unit === 'call' ? 'calls' : 'deliveries';
  const nth = ['next', 'second', 'third'][(runs.gcCycles ?? 1) - 1] ?? `${runs.gcCycles}th`;
  return runs.gcCycles
    ? `one process a repeat, counted from the end of a major GC to the end of the ${nth} one after it (${ops} counted: the window's own)`
    : `${runs.long} - ${runs.short} ${ops}`;
}

/**
 * Instructions per operation of each side, for every repeat: each side counted in a process of
 * its own doing `short` then `long` operations, (long - short) / (runs.long - runs.short), which
 * takes out start-up (modules, the token, the first compilations); JIT and GC work stay in.
 */
export async function perOperation<S extends { side: string }>(
  sides: S[],
  runs: Runs,
  count: (side: S, operations: number) => Promise<Count>,
): Promise<Map<string, Count[]>> {
  const lengths = runs.gcCycles ? [runs.long] : [runs.short, runs.long];
  const jobs = sides.flatMap((s) =>
    Array.from({ length: REPEAT }, () => lengths.map((n) => () => count(s, n))).flat(),
  );
  const counts = await pool(jobs, Math.min(2, cpus().length));
  const result = new Map<string, Count[]>();
  let k = 0;
  for (const s of sides) {
    const per: Count[] = [];
    for (let r = 0; r < REPEAT; r++, k += lengths.length) {
      per.push(
        runs.gcCycles ? perWindowOperation(counts[k], s.side) : perDifference(counts[k], counts[k + 1], runs),
      );
    }
    result.set(s.side, per);
    progress(
      NAME,
      `${s.side}: ${per.map((c) => `${Math.round(c.instructions)} (compilers ${Math.round(c.compiler)})`).join(', ')} instructions per ${runs.unit}`,
    );
  }
  return result;
}

/** (long - short) / (the difference of their operations). */
function perDifference(short: Count, long: Count, runs: Runs): Count {
  const ops = runs.long - runs.short;
  return {
    instructions: (long.instructions - short.instructions) / ops,
    compiler: (long.compiler - short.compiler) / ops,
  };
}

/** A whole-cycles window's count over the operations it held. */
function perWindowOperation(c: Count, side: string): Count {
  if (!c.operations) throw new Error(`${side}: the process did not say how many operations it counted`);
  return {
    instructions: c.instructions / c.operations,
    compiler: c.compiler / c.operations,
    operations: c.operations,
  };
}

/**
 * The figure's count: a warm process's instructions outside V8's optimizing compilers. What they
 * compile is kept, so their work in a window is what is left of the warm-up plus the odd
 * de-optimization and re-compilation, and it swings from window to window: Node 24, the reference
 * app after 10,000 deliveries, "off", counted 24M compiler instructions over 300 deliveries and
 * 1,174M over 1,200 (a re-optimization storm in one window), 2,197k a delivery in all against 919k
 * outside them. Both are in the notes.
 */
const steady = (c: Count): number => c.instructions - c.compiler;

const mean = (xs: number[]): number => xs.reduce((a, b) => a + b, 0) / xs.length;
const fmt = (n: number): string => `${Math.round(n / 1000).toLocaleString('en-US')}k`;

/** One figure: the mean count per operation of side `ours` over that of `baseline`. */
export function figure(
  name: string,
  per: Map<string, Count[]>,
  runs: Runs,
  [ours, baseline]: [string, string],
  [target, limit]: [string, number | null],
  notes: string,
): BenchFigure {
  const of = (side: string, what: (c: Count) => number): number[] => (per.get(side) ?? []).map(what);
  const o = mean(of(ours, steady));
  const b = mean(of(baseline, steady));
  const ratio = Math.round((o / b) * 1000) / 1000;
  const spread = (s: string, what: (c: Count) => number) =>
    of(s, what)
      .map((n) => fmt(n))
      .join(' / ');
  const compilers = `${spread(ours, (c) => c.compiler)} vs ${spread(baseline, (c) => c.compiler)}`;
  const windows = (a: string, b: string): string =>
    runs.gcCycles
      ? ` (${of(a, (c) => c.operations ?? 0).join(' / ')} vs ${of(b, (c) => c.operations ?? 0).join(' / ')})`
      : '';
  const totals = `${spread(ours, (c) => c.instructions)} vs ${spread(baseline, (c) => c.instructions)}`;
  return {
    figure: name,
    unit: `instructions/${runs.unit}`,
    ours: Math.round(o),
    baseline: Math.round(b),
    ratio,
    target,
    pass: limit === null || ratio <= limit,
    rounds: REPEAT,
    notes: `${notes}; per ${runs.unit} outside V8's optimizing compilers ${spread(ours, steady)} vs ${spread(baseline, steady)} (each repeat); the compilers ${compilers}; all instructions ${totals}; ${windowOf(runs)}${windows(ours, baseline)}`,
  };
}

/** The instrumentation sides, as the client and webhook groups both measure them against "off". */
export const INSTRUMENTED = [
  ['hooks', 'metrics hooks only (prom-client), no tracing SDK'],
  ['sampled', 'metrics and traces sampled at 10%'],
  ['on', 'metrics and every trace exported'],
] as const;
