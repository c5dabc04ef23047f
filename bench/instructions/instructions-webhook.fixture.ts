/**
 * The webhook group of bench/instructions.ts: the reference app (instrumentation-app.fixture.ts,
 * as instrumentation.bench.ts runs it) under callgrind, one process and one fresh SQLite file per
 * count. It boots uncounted (callgrind's instrumentation off: booting counted took over 10 minutes
 * a process), takes WARM_UP deliveries uncounted, and is counted from when it has gone idle after
 * processing them. The driver, not counted,
 * sends it signed user.created deliveries (each a new event id and user, 8 at a time as the timed
 * side), waits until its inbox has processed every one (the app answers 2xx once the entry is
 * stored and processes it after), then stops it: the count runs to its exit (the last span batch
 * exported). A short and a long run give the cost per delivery.
 */
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Count, NAME, startCounting, underCallgrind } from './instructions-count.fixture';
import { figure, INSTRUMENTED, perOperation, type Runs } from './instructions-figures.fixture';
import { SECRET } from '../instrumentation/instrumentation-rounds.fixture';
import { instrumentedAppEnv } from '../instrumentation/instrumentation-webhook.fixture';
import { progress, QUICK, type BenchFigure } from '../lib/contract.util';
import { openInboxReader, waitProcessed, type InboxReader } from '../lib/inbox-reader.fixture';
import { deliver, signedDeliveries, type SignedDelivery } from '../lib/webhook-load.fixture';

export const WEBHOOK_RUNS: Runs = { short: QUICK ? 60 : 300, long: QUICK ? 240 : 1200, unit: 'delivery' };
/**
 * Deliveries sent before counting starts, every one processed: a long-running app has run its
 * webhook path, and the span exporter's, many times over (compiled, caches filled). After 600, V8's
 * optimizing compilers still ran 1,374k instructions a delivery in the counted window (Node 20,
 * "off": 42% of the 3,233k counted); after 10,000, 39k. What they still do is reported apart, and
 * the figure leaves it out (instructions-count.fixture.ts, `steady`).
 */
const WARM_UP = QUICK ? 300 : 10_000;
const CONNECTIONS = 8;
/**
 * sampled-out: every root decided "not sampled" by the SDK (parentbased_always_off), so what a
 * trace that is not recorded costs; any ratio's cost is this plus the ratio times a recorded one's.
 */
const SIDES = ['off', 'hooks', 'sampled-out', 'sampled', 'on'] as const;
type Mode = (typeof SIDES)[number];
/** Booting under valgrind (transpiling and compiling the whole app ~50x slower) takes minutes. */
const BOOT_MS = 600_000;
/** A delivery's answer, 8 in flight on a slowed event loop (autocannon's default is 10 s). */
const ANSWER_S = 120;
const DRAIN_MS = 900_000;

function listening(child: ChildProcess, collected: Promise<Count>): Promise<string> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`the app did not listen within ${BOOT_MS} ms`)), BOOT_MS);
    child.once('message', (m: { url?: string }) => {
      clearTimeout(timer);
      if (m.url) resolve(m.url);
      else reject(new Error('the app sent no url'));
    });
    collected.then(
      () => reject(new Error('the app exited before it listened')),
      (e: unknown) => reject(e instanceof Error ? e : new Error(String(e))),
    );
  });
}

/** CPU seconds a process has used so far (/proc/<pid>/stat: utime and stime, in clock ticks of 1/100 s). */
function cpuSeconds(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

/**
 * Resolves once the process has used under 0.05 s of CPU in 2 s (after startedUp): nothing left
 * running. Counting starts there, the same point in every run.
 */
async function idle(pid: number): Promise<void> {
  const end = Date.now() + BOOT_MS;
  for (let before = cpuSeconds(pid); Date.now() < end;) {
    await new Promise((resolve) => setTimeout(resolve, 2000));
    const now = cpuSeconds(pid);
    if (now - before < 0.05) return;
    before = now;
  }
  throw new Error(`the app was still busy ${BOOT_MS} ms after it listened`);
}

/**
 * Resolves once GET /health/ready says `startup.state: started`: the start-up partner calls (version
 * pin, first token) and the inbox's start-up pass have finished once, retries and backoff included.
 * They run after the port opens; an idle gap between two retries must not start the count.
 */
async function startedUp(url: string): Promise<void> {
  const end = Date.now() + BOOT_MS;
  while (Date.now() < end) {
    const body = await fetch(`${url}/health/ready`).then(
      (r) => r.text(),
      () => '',
    );
    if (/"state":"started"/.test(body)) return;
    await new Promise((resolve) => setTimeout(resolve, 1000));
  }
  throw new Error(`the app's start-up calls had not finished ${BOOT_MS} ms after it listened`);
}

/** The app's instructions for `deliveries` deliveries, every one answered 2xx and processed. */
async function countApp(mode: Mode, deliveries: number, partnerUrl: string, sinkUrl: string): Promise<Count> {
  const dir = mkdtempSync(join(tmpdir(), 'bench-instructions-'));
  const databaseUrl = `sqlite:${join(dir, 'app.sqlite')}`;
  // Signed before the app starts: the driver's work is not counted, but it shares the CPU.
  const [warm, batch] = [signedDeliveries(WARM_UP, SECRET), signedDeliveries(deliveries, SECRET)];
  const env = instrumentedAppEnv(databaseUrl, partnerUrl, sinkUrl, mode);
  const { child, collected } = underCallgrind('../instrumentation/instrumentation-app.fixture.ts', env, {
    ipc: true,
    later: true,
  });
  const began = Date.now();
  const at = (): string => `${mode} ${deliveries}: ${Math.round((Date.now() - began) / 1000)} s`;
  try {
    const url = await listening(child, collected);
    await startedUp(url);
    await sendAll(url, warm, mode);
    const reader = await openInboxReader(databaseUrl);
    let batches = 0;
    try {
      await processedAll(reader, WARM_UP, mode);
      await idle(child.pid ?? 0);
      startCounting(child);
      progress(NAME, `${at()}, booted and warmed up (${WARM_UP} deliveries), counting`);
      await sendAll(url, batch, mode);
      // A batch's entries are marked processed by one statement, at one time: how many transactions
      // the processing took, which the arrival timing decides (what arrives meanwhile joins the next).
      batches = await processedAll(reader, WARM_UP + deliveries, mode, new Set(batch.map((d) => d.eventId)));
    } finally {
      await reader.close();
    }
    progress(NAME, `${at()}, every delivery answered and processed, in about ${batches} batches`);
    // It closes (the last span batch exported to the sink, still listening) and exits by itself.
    child.send('stop');
    const count = await collected;
    progress(
      NAME,
      `${at()}, exited: ${count.instructions.toLocaleString('en-US')} instructions (compilers ${count.compiler.toLocaleString('en-US')})`,
    );
    return count;
  } finally {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Sends every delivery, each answered 2xx. */
async function sendAll(url: string, deliveries: SignedDelivery[], mode: Mode): Promise<void> {
  const round = await deliver(`${url}/webhooks/partner`, deliveries, CONNECTIONS, ANSWER_S);
  if (round.accepted.size !== deliveries.length || round.errors > 0)
    throw new Error(
      `${mode}: ${round.accepted.size} of ${deliveries.length} accepted, answers ${JSON.stringify(round.answers)}, ${round.errors} errors`,
    );
}

/**
 * Waits until the inbox holds `total` processed entries and nothing else; returns in how many
 * batches (distinct processed-at times) the entries of `counted` were marked.
 */
async function processedAll(
  reader: InboxReader,
  total: number,
  mode: Mode,
  counted: ReadonlySet<string> = new Set(),
): Promise<number> {
  const left = await waitProcessed(reader, DRAIN_MS);
  const processed = (await reader.rows()).filter((r) => r.state === 'processed');
  if (left > 0 || processed.length !== total)
    throw new Error(`${mode}: ${processed.length} of ${total} processed, ${left} left after ${DRAIN_MS} ms`);
  return new Set(processed.filter((r) => counted.has(r.eventId)).map((r) => r.processedAt)).size;
}

/**
 * Instructions per delivery of each side, and the figures against "off". `only` (--sides) counts
 * the sides named; a figure missing one of its sides is left out.
 */
export async function webhookGroup(
  partnerUrl: string,
  sinkUrl: string,
  only?: readonly string[],
): Promise<BenchFigure[]> {
  const sides = SIDES.filter((side) => only === undefined || only.includes(side));
  progress(
    NAME,
    `webhook: ${WEBHOOK_RUNS.short} and ${WEBHOOK_RUNS.long} deliveries per side (${sides.join(', ')})`,
  );
  const per = await perOperation(
    sides.map((side) => ({ side })),
    WEBHOOK_RUNS,
    ({ side }, n) => countApp(side, n, partnerUrl, sinkUrl),
  );
  const described = [
    ...INSTRUMENTED,
    ['sampled-out', 'metrics, the tracing SDK sampling every trace out'],
  ] as const;
  return described
    .filter(([side]) => per.has(side) && per.has('off'))
    .map(([side, what]) =>
      figure(
        `webhook: instructions per delivery, instrumentation ${what} vs off`,
        per,
        WEBHOOK_RUNS,
        [side, 'off'],
        side === 'hooks' || side === 'sampled'
          ? ['≤ 1.05', 1.05]
          : [
              side === 'on'
                ? 'reported (the production setting samples)'
                : 'reported (the floor of any ratio)',
              null,
            ],
        `the reference app's process, from idle after boot to exit: signed user.created by ${CONNECTIONS} connections, each stored, processed (projection written) and traced as the app does; one process and SQLite file per count`,
      ),
    );
}
