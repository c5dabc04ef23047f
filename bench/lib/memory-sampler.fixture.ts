/**
 * Samples process memory on a fixed interval while a piece of work runs and reports the peak
 * above a baseline taken after a forced GC. RSS is what the machine pays; arrayBuffers is where
 * Buffers live (outside the JS heap), so a file held in memory shows up there first.
 */
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

export interface MemoryReading {
  rssMb: number;
  arrayBuffersMb: number;
  externalMb: number;
  heapUsedMb: number;
}

export interface SampledRun<T> {
  value: T;
  durationMs: number;
  samples: number;
  baseline: MemoryReading;
  peak: MemoryReading;
  /** peak - baseline, per field (each field's own peak). */
  growth: MemoryReading;
}

const mb = (bytes: number) => Math.round((bytes / 1048576) * 10) / 10;

function read(): MemoryReading {
  const m = process.memoryUsage();
  return {
    rssMb: mb(m.rss),
    arrayBuffersMb: mb(m.arrayBuffers),
    externalMb: mb(m.external),
    heapUsedMb: mb(m.heapUsed),
  };
}

type GcFn = (options?: { type: 'major' | 'minor' }) => void;

/** The GC function without needing --expose-gc on the command line (ts-node starts node for us). */
function gcFunction(): GcFn {
  setFlagsFromString('--expose-gc');
  return runInNewContext('gc') as GcFn;
}

export function forceGc(): void {
  const gc = gcFunction();
  gc();
  gc();
}

/**
 * `live`: a minor GC (young generation, cheap) before each sample, so Buffers already dropped but
 * not yet collected are not counted: what the process actually retains, not what V8 has yet to free.
 * Without it, V8 frees dropped Buffers only when their external memory passes its own threshold.
 */
export async function sampleDuring<T>(
  work: () => Promise<T>,
  intervalMs = 5,
  live = false,
): Promise<SampledRun<T>> {
  const gc = gcFunction();
  forceGc();
  await new Promise((r) => setTimeout(r, 100)); // let the GC's frees reach the OS before the baseline
  const baseline = read();
  const peak = { ...baseline };
  let samples = 0;
  const sample = () => {
    if (live) gc({ type: 'minor' });
    const r = read();
    samples++;
    for (const k of Object.keys(peak) as (keyof MemoryReading)[]) peak[k] = Math.max(peak[k], r[k]);
  };
  const timer = setInterval(sample, intervalMs);
  const started = performance.now();
  try {
    const value = await work();
    sample();
    const durationMs = Math.round(performance.now() - started);
    const growth = {} as MemoryReading;
    for (const k of Object.keys(peak) as (keyof MemoryReading)[])
      growth[k] = Math.round((peak[k] - baseline[k]) * 10) / 10;
    return { value, durationMs, samples, baseline, peak, growth };
  } finally {
    clearInterval(timer);
  }
}
