/**
 * The client's CPU cost counted in instructions, not seconds (issues 13 and 14), beside the timed
 * figures of client.bench.ts and instrumentation.bench.ts: on this shared 2-core machine a timed
 * round moves by ±10-15% with the neighbours' load (the A/A control rows), more than the 5% those
 * targets are about. valgrind's callgrind counts the instructions a process executes, the same
 * count whatever else the machine does. Not a row of `npm run bench`: it takes about an hour.
 *
 * Each side runs in its own process under callgrind, twice: a short then a long run (calls, or
 * deliveries), and its cost per operation is the difference of the counts over that of the runs.
 * Each process first does a warm-up uncounted (8,000 calls, 10,000 deliveries); the difference then
 * takes out what is left of start-up, so the figure is a long-running process's steady state, as
 * in the timed rounds. GC work counts, as it does in CPU time; V8's optimizing compilers are
 * counted apart and left out of the ratio: what they still compile in a window swings from one
 * window to the next (instructions-count.fixture.ts, `steady`). Sides:
 *  - client, c=64 and c=1: the module's payouts.get against bare axios with a keep-alive agent
 *    sending the same headers, both against the replay server (client.bench.ts's pairs);
 *  - instrumentation, c=16: the module's client with no instrumentation ("off") against the app's
 *    metrics hooks only, hooks plus the OpenTelemetry SDK sampling 10% of traces, and hooks plus
 *    every trace exported over OTLP/HTTP (instrumentation.bench.ts's client sides); and the same
 *    client called as the reference app calls it, in its log scope, off against metrics and traces
 *    on the app's context manager, every call sampled out, 10% sampled and every trace exported
 *    (instructions-child.fixture.ts, appSide);
 *  - webhook: the reference app receiving and processing signed deliveries, the same four
 *    instrumentation sides and every delivery sampled out (instructions-webhook.fixture.ts).
 * Usage: npm run build:libs && node -r ./bench/lib/transpile.register.js bench/instructions/instructions.ts
 * [--quick] [--repeat n] [--node <binary>] [--only client|webhook] [--sides a,b] (the sides to
 * count, e.g. app-off,app-sampled or off,sampled-out: a partial run) [--out name] [--gc-cycles K] (the client's
 * instrumentation sides counted over K whole cycles of major GCs, default 2 (0 with --quick);
 * 0: short and long runs). Needs valgrind on PATH. Writes bench/results/instructions/instructions.{json,md}; with --only <group>:
 * instructions-<group>.*, so a partial run leaves the full run's rows alone; with --quick:
 * instructions-quick*, git-ignored; with --out name: name.*. Prints the contract's JSON line.
 */
import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { clientGroup } from './instructions-client.fixture';
import { arg, NAME, NODE, REPEAT } from './instructions-count.fixture';
import { webhookGroup } from './instructions-webhook.fixture';
import { children, start } from '../instrumentation/instrumentation-rounds.fixture';
import { hardDeadline, progress, QUICK } from '../lib/contract.util';
import { captureMachine, renderMarkdown } from '../lib/results-writer.fixture';

const GROUPS = ['client', 'webhook'] as const;
/** --only client|webhook: one group (its own results file). */
const ONLY = arg('--only');
if (ONLY !== undefined && !(GROUPS as readonly string[]).includes(ONLY))
  throw new Error(`--only takes one of ${GROUPS.join(', ')}, not ${ONLY}`);
const runs = (group: (typeof GROUPS)[number]): boolean => ONLY === undefined || ONLY === group;
/** --sides a,b: count only these sides, of either group (a partial run: figures missing a side are left out). */
const ONLY_SIDES = arg('--sides')?.split(',');
/**
 * --out <name>: write bench/results/instructions/<name>.{json,md} instead (a partial run, --sides, then leaves
 * the group's full file alone).
 */
const OUT = arg('--out');
if (OUT !== undefined && !/^[\w.-]+$/.test(OUT)) throw new Error(`--out takes a file name, not ${OUT}`);

async function main(): Promise<void> {
  // Stopped by a signal: exit, so the child registry kills the valgrind processes too.
  for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => process.exit(130));
  // Two hours a group and repeat at most (about half an hour each when run alone).
  hardDeadline((QUICK ? 1_800_000 : 7_200_000) * REPEAT * (ONLY ? 1 : GROUPS.length), NAME);
  if (spawnSync('valgrind', ['--version']).status !== 0) throw new Error('valgrind is not on PATH');
  // The Node that ran the counted processes, not this driver's.
  const machine = {
    ...captureMachine(join(__dirname, '..', '..')),
    node: spawnSync(NODE, ['--version'], { encoding: 'utf8' }).stdout.trim(),
  };
  const started = Date.now();
  progress(NAME, 'starting the instrumentation stub (partner and OTLP sink)');
  const { info: stub } = await start<{ partner: string; sink: string }>('instrumentation-servers.fixture.ts');
  try {
    const figures = [
      ...(runs('client') ? await clientGroup(stub, ONLY_SIDES) : []),
      ...(runs('webhook') ? await webhookGroup(stub.partner, stub.sink, ONLY_SIDES) : []),
    ];
    machine.loadAverageEnd = loadavg().map((n) => Math.round(n * 100) / 100);
    const outcome = {
      bench: NAME,
      exitCode: 0,
      durationS: Math.round((Date.now() - started) / 1000),
      loadStart: machine.loadAverageStart[0],
      loadEnd: machine.loadAverageEnd[0],
      figures,
    };
    const result = { ...machine, quick: QUICK, absent: [], benches: [outcome] };
    const other = NODE === process.execPath ? '' : `-node${machine.node.replace(/^v(\d+).*/, '$1')}`;
    const stem = OUT ?? `instructions${QUICK ? '-quick' : ''}${ONLY ? `-${ONLY}` : ''}${other}`;
    const file = join(__dirname, '..', 'results', 'instructions', stem);
    writeFileSync(`${file}.json`, `${JSON.stringify(result, null, 2)}\n`);
    // The ratio here is of the mean count per operation over the repeats, not of timed rounds.
    writeFileSync(
      `${file}.md`,
      renderMarkdown(result).replace(
        /^Ratio: .*$/m,
        'Ratio: ours / baseline of the instructions per call or delivery (mean over the repeats). The load does not change a client count; it moves a webhook count a few percent (the inbox batches what arrives together, one transaction a batch).',
      ),
    );
    progress(NAME, `written to bench/results/instructions/${stem}.{json,md} in ${outcome.durationS} s`);
    process.stdout.write(`${JSON.stringify({ bench: NAME, figures })}\n`);
  } finally {
    for (const child of children) child.kill('SIGTERM');
  }
}

main().catch((e: unknown) => {
  process.stderr.write(`${NAME} failed: ${e instanceof Error ? e.stack : String(e)}\n`);
  process.exit(1);
});
