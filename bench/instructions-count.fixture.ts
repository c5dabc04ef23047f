/**
 * What the groups of bench/instructions.ts share: a Node process under valgrind's callgrind (the
 * flags that make the slowed process behave as it does at full speed), the cost per operation of
 * each side from a short and a long run, and the figures.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { cpus } from 'node:os';
import { join } from 'node:path';
import { trackChild } from './lib/child-registry.fixture';
import { progress, type BenchFigure } from './lib/contract';

export const NAME = 'instructions';
export const arg = (name: string): string | undefined =>
  process.argv.includes(name) ? process.argv[process.argv.indexOf(name) + 1] : undefined;
export const REPEAT = Number(arg('--repeat') ?? 1);
/** --node <binary>: count under another Node (e.g. 24, where AsyncLocalStorage needs no promise hooks). */
export const NODE = arg('--node') ?? process.execPath;
const LOADER = join(__dirname, 'lib', 'transpile.register.js');

export interface Counted {
  child: ChildProcess;
  /** The process's instructions (callgrind's "Collected" line), once it has exited with 0. */
  collected: Promise<number>;
}

/**
 * `script` (a .ts file of bench/) run by NODE under callgrind. With `ipc` the child gets the IPC
 * channel (fork's fd 3, which valgrind hands on to the process it runs). With `later`, nothing is
 * counted until startCounting: the process runs uninstrumented (several times faster) till then.
 */
export function underCallgrind(
  script: string,
  env: Record<string, string>,
  { ipc = false, later = false } = {},
): Counted {
  const child = trackChild(
    spawn(
      'valgrind',
      [
        '--tool=callgrind',
        ...(later ? ['--instr-atstart=no'] : []),
        // V8 writes the code it then runs: valgrind must re-read code written at run time.
        '--smc-check=all-non-file',
        '--callgrind-out-file=/dev/null',
        NODE,
        // valgrind runs the process ~50x slower, and V8's memory reducer starts full GCs when few
        // bytes are allocated per second: under valgrind it took the slow clock for idleness. With
        // it on, "off" counted 1,333k instructions per call and the metrics hooks +137k, mostly
        // full-GC marking of their larger heap; with it off, 1,229k and +75k (both before d39ab28).
        // A busy process at full speed never triggers it, so it is off here, on every side.
        '--no-memory-reducer',
        '-r',
        LOADER,
        join(__dirname, script),
      ],
      {
        env: {
          ...process.env,
          ...env,
          // The batch processor exports every 5 s or at 512 spans. At full speed 512 spans fill in
          // about 0.3 s, so the timer never fires; under valgrind it would fire long before, three
          // or more small exports (a request each) instead of one. By size only, as at full speed.
          OTEL_BSP_SCHEDULE_DELAY: '600000',
        },
        stdio: ['ignore', 'ignore', 'pipe', ...(ipc ? (['ipc'] as const) : [])],
      },
    ),
  );
  let err = '';
  child.stderr?.on('data', (c: Buffer) => (err += c.toString()));
  const collected = new Promise<number>((resolve, reject) =>
    child.once('exit', (code) => {
      const m = /Collected : (\d+)/.exec(err);
      if (code === 0 && m) resolve(Number(m[1]));
      else reject(new Error(`${script} exited ${code}: ${err.slice(-800)}`));
    }),
  );
  collected.catch(() => undefined); // the caller awaits it, or fails earlier for another reason
  return { child, collected };
}

/** Turns callgrind's counting on in a process started with `later` (through vgdb). */
export function startCounting(child: ChildProcess): void {
  if (child.pid === undefined) throw new Error('callgrind_control: the process has no pid');
  const r = spawnSync('callgrind_control', ['--instr=on', String(child.pid)], { encoding: 'utf8' });
  if (r.status !== 0 || !/OK/.test(r.stdout))
    throw new Error(`callgrind_control could not start counting: ${r.stdout}${r.stderr}`);
}

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

/** A group's short and long runs: how many operations, and what one is called. */
export interface Runs {
  short: number;
  long: number;
  unit: 'call' | 'delivery';
}

/**
 * Instructions per operation of each side, for every repeat: each side counted in a process of
 * its own doing `short` then `long` operations, (long - short) / (runs.long - runs.short), which
 * takes out start-up (modules, the token, the first compilations); JIT and GC work stay in.
 */
export async function perOperation<S extends { side: string }>(
  sides: S[],
  runs: Runs,
  count: (side: S, operations: number) => Promise<number>,
): Promise<Map<string, number[]>> {
  const jobs = sides.flatMap((s) =>
    Array.from({ length: REPEAT }, () => [runs.short, runs.long].map((n) => () => count(s, n))).flat(),
  );
  const counts = await pool(jobs, Math.min(2, cpus().length));
  const result = new Map<string, number[]>();
  let k = 0;
  for (const s of sides) {
    const per: number[] = [];
    for (let r = 0; r < REPEAT; r++, k += 2) per.push((counts[k + 1] - counts[k]) / (runs.long - runs.short));
    result.set(s.side, per);
    progress(NAME, `${s.side}: ${per.map((n) => Math.round(n)).join(', ')} instructions per ${runs.unit}`);
  }
  return result;
}

const mean = (xs: number[]): number => xs.reduce((a, b) => a + b, 0) / xs.length;
const fmt = (n: number): string => `${Math.round(n / 1000).toLocaleString('en-US')}k`;

/** One figure: the mean count per operation of side `ours` over that of `baseline`. */
export function figure(
  name: string,
  per: Map<string, number[]>,
  runs: Runs,
  [ours, baseline]: [string, string],
  [target, limit]: [string, number | null],
  notes: string,
): BenchFigure {
  const o = mean(per.get(ours) ?? []);
  const b = mean(per.get(baseline) ?? []);
  const ratio = Math.round((o / b) * 1000) / 1000;
  const spread = (s: string) => (per.get(s) ?? []).map((n) => fmt(n)).join(' / ');
  return {
    figure: name,
    unit: `instructions/${runs.unit}`,
    ours: Math.round(o),
    baseline: Math.round(b),
    ratio,
    target,
    pass: limit === null || ratio <= limit,
    rounds: REPEAT,
    notes: `${notes}; per ${runs.unit} ${spread(ours)} vs ${spread(baseline)} (each repeat); ${runs.long} - ${runs.short} ${runs.unit === 'call' ? 'calls' : 'deliveries'}`,
  };
}

/** The instrumentation sides, as the client and webhook groups both measure them against "off". */
export const INSTRUMENTED = [
  ['hooks', 'metrics hooks only (prom-client), no tracing SDK'],
  ['sampled', 'metrics and traces sampled at 10%'],
  ['on', 'metrics and every trace exported'],
] as const;
