/**
 * What the groups of bench/instructions/instructions.ts share: a Node process under valgrind's
 * callgrind (the flags that make the slowed process behave as it does at full speed) and what it
 * counted. The cost per operation and the figures: instructions-figures.fixture.ts.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { trackChild } from '../lib/child-registry.fixture';

export const NAME = 'instructions';
export const arg = (name: string): string | undefined =>
  process.argv.includes(name) ? process.argv[process.argv.indexOf(name) + 1] : undefined;
export const REPEAT = Number(arg('--repeat') ?? 1);
/** --node <binary>: count under another Node (e.g. 24, where AsyncLocalStorage needs no promise hooks). */
export const NODE = arg('--node') ?? process.execPath;
const LOADER = join(__dirname, '..', 'lib', 'transpile.register.js');

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
