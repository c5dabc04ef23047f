/**
 * Interleaved rounds of ours (A) against the baseline (B): one warm-up of each, then `rounds` pairs
 * whose order alternates (A B, B A, A B, ...), so a change in the machine's load (other processes
 * on the same 2 cores) or a slow drift (a growing database file) hits both sides alike. Figures are
 * medians; the ratio is the median of the per-pair ratios, so one disturbed pair cannot move it.
 */
import { median, progress, round } from './contract.util';

export interface Paired<T> {
  ours: T[];
  baseline: T[];
}

export interface InterleaveOptions<T> {
  name: string;
  rounds: number;
  ours: (round: number) => Promise<T>;
  baseline: (round: number) => Promise<T>;
  /** One round of each side first, not counted (JIT, connection pools, caches). Default true. */
  warmUp?: boolean;
  /** One line of progress per round. */
  describe?: (value: T) => string;
}

export async function interleave<T>(options: InterleaveOptions<T>): Promise<Paired<T>> {
  const { name, describe = () => '' } = options;
  if (options.warmUp !== false) {
    progress(name, `warm-up ours: ${describe(await options.ours(-1))}`);
    progress(name, `warm-up baseline: ${describe(await options.baseline(-1))}`);
  }
  const out: Paired<T> = { ours: [], baseline: [] };
  for (let i = 0; i < options.rounds; i++) {
    const order: Array<'ours' | 'baseline'> = i % 2 === 0 ? ['ours', 'baseline'] : ['baseline', 'ours'];
    for (const side of order) {
      const value = await options[side](i);
      out[side].push(value);
      progress(name, `round ${i + 1}/${options.rounds} ${side}: ${describe(value)}`);
    }
  }
  return out;
}

/** Median of ours[i] / baseline[i]: the figure's ratio. */
export function pairedRatio(ours: readonly number[], baseline: readonly number[]): number {
  return round(median(ours.map((o, i) => o / baseline[i])), 3);
}

/** Fixed number of calls, or as many as fit in a time window, from `concurrency` callers. */
export interface LoadResult {
  calls: number;
  failed: number;
  elapsedMs: number;
  perSecond: number;
  /** Per-call latency in ms (every call, failures included). */
  latencies: number[];
  /**
   * CPU time (user + system) this process spent per call, in µs: the client's own cost, which
   * other processes' load inflates far less than it inflates wall time.
   */
  cpuUsPerCall: number;
}

export async function runCallers(
  call: () => Promise<unknown>,
  concurrency: number,
  durationMs: number,
): Promise<LoadResult> {
  const latencies: number[] = [];
  let failed = 0;
  const cpu = process.cpuUsage();
  const started = performance.now();
  const end = started + durationMs;
  const caller = async (): Promise<void> => {
    while (performance.now() < end) {
      const t = performance.now();
      try {
        await call();
      } catch {
        failed++;
      }
      latencies.push(performance.now() - t);
    }
  };
  await Promise.all(Array.from({ length: concurrency }, caller));
  const elapsedMs = performance.now() - started;
  const used = process.cpuUsage(cpu);
  return {
    calls: latencies.length,
    failed,
    elapsedMs,
    perSecond: latencies.length / (elapsedMs / 1000),
    latencies,
    cpuUsPerCall: (used.user + used.system) / Math.max(1, latencies.length),
  };
}
