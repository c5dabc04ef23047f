/**
 * What the groups of bench/instructions.ts share: a Node process under valgrind's callgrind (the
 * flags that make the slowed process behave as it does at full speed), the cost per operation of
 * each side from a short and a long run, and the figures.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
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

/** What callgrind counted in one process. */
export interface Count {
  /** Every instruction of the process, all its threads (callgrind's "Collected" line). */
  instructions: number;
  /**
   * Of those, the instructions of V8's optimizing compilers (TurboFan, Maglev, Turboshaft; on their
   * background threads too): a warm-up still going on. Compiled code is kept, so a long-running
   * process pays this once; in a window counted from a warm process it should be a small share.
   */
  compiler: number;
  /**
   * Operations in the counted window, when the process chose the window itself (whole GC cycles:
   * it writes `counted calls: N` to stderr); absent when the caller set the operations.
   */
  operations?: number;
}

export interface Counted {
  child: ChildProcess;
  /** What the process counted, once it has exited with 0. */
  collected: Promise<Count>;
}

/** V8's optimizing tiers, by the C++ namespaces of their functions in callgrind's report. */
const COMPILER = /v8::internal::(compiler|maglev|turboshaft)::/;

/**
 * The instructions in V8's optimizing compilers, from callgrind's per-function report of `file`
 * (self cost, every function: threshold 100%).
 */
function compilerInstructions(file: string): number {
  const r = spawnSync('callgrind_annotate', ['--inclusive=no', '--threshold=100', file], {
    encoding: 'utf8',
    maxBuffer: 256 * 1024 * 1024,
  });
  if (r.status !== 0) throw new Error(`callgrind_annotate ${file} failed: ${r.stderr}`);
  let sum = 0;
  for (const line of r.stdout.split('\n')) {
    const m = /^\s*([\d,]+) \([\s\d.]+%\)\s+(.*)$/.exec(line);
    if (m && COMPILER.test(m[2])) sum += Number(m[1].replace(/,/g, ''));
  }
  return sum;
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
  const dir = mkdtempSync(join(tmpdir(), 'bench-callgrind-'));
  const out = join(dir, 'callgrind.out');
  const child = trackChild(
    spawn(
      'valgrind',
      [
        '--tool=callgrind',
        ...(later ? ['--instr-atstart=no'] : []),
        // V8 writes the code it then runs: valgrind must re-read code written at run time.
        '--smc-check=all-non-file',
        // Kept till the process exits: its per-function report tells the compilers' share.
        `--callgrind-out-file=${out}`,
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
  const collected = new Promise<Count>((resolve, reject) =>
    child.once('exit', (code) => {
      try {
        const m = /Collected : (\d+)/.exec(err);
        const ops = /counted (?:calls|deliveries): (\d+)/.exec(err);
        if (code === 0 && m)
          resolve({
            instructions: Number(m[1]),
            compiler: compilerInstructions(out),
            ...(ops ? { operations: Number(ops[1]) } : {}),
          });
        else reject(new Error(`${script} exited ${code}: ${err.slice(-800)}`));
      } catch (e) {
        reject(e instanceof Error ? e : new Error(String(e)));
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
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
