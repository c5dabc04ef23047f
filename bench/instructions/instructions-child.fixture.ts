/**
 * One side of bench/instructions/instructions.ts, run under valgrind's callgrind (which counts the instructions
 * of the whole process): CALLS calls of GET /v1/payouts/{id} by CALLERS concurrent callers, then the
 * process ends. The far end is in another process, not counted.
 * env:
 *   SIDE     bare | ours: bare axios with a keep-alive agent, or the module's client, against the
 *            replay server (TARGET_URL, PAYOUT_ID; the bare side sends BARE_PATH with BARE_HEADERS,
 *            the headers the client sent, as client.bench.ts does);
 *            off | hooks | sampled | on: the module's client against the instrumentation stub
 *            (TARGET_URL, SINK_URL): no instrumentation; the app's metrics hooks only; hooks and the
 *            OpenTelemetry SDK sampling 10% of traces; hooks and every trace exported.
 *            app-off | app-out | app-sampled | app-on: the same client called as the reference app
 *            calls it (appSide): off, and traces sampled at 0 (every call sampled out), 10%, 100%.
 *   CALLS, CALLERS
 *   WARMUP_CALLS  calls made first, uncounted (the process is started with callgrind's
 *            instrumentation off); counting is turned on once they are done.
 *   GC_CYCLES  if set (K > 0), CALLS is a cap, not a count: after the warm-up the calls go on
 *            until a major GC has ended, counting is turned on there, and turned off at the end of
 *            the K-th major GC after it; the process then writes `counted calls: N` to stderr. The
 *            window holds K whole cycles of the old generation, so each side pays the major GCs
 *            its own allocation brings, no more and no less (gcCycleWindow says why).
 */
import { execFile } from 'node:child_process';
import { Agent } from 'node:http';
import { constants, PerformanceObserver } from 'node:perf_hooks';
import { promisify } from 'node:util';
import axios from 'axios';
import { createPartnerPaymentsClient } from '@partner-payments/nestjs';
import { AppMetrics } from '../../apps/reference-app/src/observability/app-metrics.service';
import {
  LogScopeContextManager,
  withLogFields,
} from '../../apps/reference-app/src/observability/log-context.util';
import {
  PAYOUT_ID as STUB_PAYOUT_ID,
  SAMPLE_RATIO,
  stubClientOptions,
  tracer,
} from '../instrumentation/instrumentation-rounds.fixture';
import { sandboxClient } from '../lib/partner.client';

type Call = () => Promise<unknown>;

function env(name: string): string {
  const value = process.env[name];
  if (value === undefined || value === '') throw new Error(`instructions-child: ${name} is not set`);
  return value;
}

/** The calls of one side, and what ends it (the SDK's last batch is exported before exit). */
function sideCalls(side: string, url: string): { call: Call; finish: () => Promise<void> } {
  const none = async (): Promise<void> => undefined;
  if (side === 'bare') {
    const bare = axios.create({
      baseURL: url,
      httpAgent: new Agent({ keepAlive: true }),
      maxRedirects: 0,
      headers: JSON.parse(env('BARE_HEADERS')) as Record<string, string>,
    });
    const path = env('BARE_PATH');
    return { call: async () => (await bare.get(path)).data, finish: none };
  }
  if (side === 'ours') {
    const client = sandboxClient(url, { rateLimit: false });
    const payoutId = env('PAYOUT_ID');
    return { call: () => client.payouts.get(payoutId), finish: none };
  }
  const base = stubClientOptions(url);
  if (side in APP_SIDES) return appSide(APP_SIDES[side], base);
  if (side === 'off') {
    const client = createPartnerPaymentsClient(base);
    return { call: () => client.payouts.get(STUB_PAYOUT_ID), finish: none };
  }
  const client = createPartnerPaymentsClient({ ...base, ...new AppMetrics().partnerHooks() });
  const call = () => client.payouts.get(STUB_PAYOUT_ID);
  if (side === 'hooks') return { call, finish: none };
  if (side !== 'sampled' && side !== 'on') throw new Error(`instructions-child: unknown SIDE ${side}`);
  return traced(call, side === 'on' ? 1 : SAMPLE_RATIO);
}

/** `call` with the SDK registered (its default context manager unless one is given), exporting to SINK_URL. */
function traced(
  call: Call,
  ratio: number,
  contextManager?: LogScopeContextManager,
): { call: Call; finish: () => Promise<void> } {
  const provider = tracer(env('SINK_URL'), ratio);
  provider.register(contextManager ? { contextManager } : undefined);
  return {
    call,
    finish: async () => {
      await provider.forceFlush();
      await provider.shutdown();
    },
  };
}

/** The app sides: the ratio of traces sampled, or null for no instrumentation at all. */
const APP_SIDES: Record<string, number | null> = {
  'app-off': null,
  'app-out': 0,
  'app-sampled': SAMPLE_RATIO,
  'app-on': 1,
};

/**
 * The client as the reference app calls it: each call inside the app's log scope (reconciliation's
 * `withLogFields({ payout_id }, ...)`), so the app's AsyncLocalStorage is entered on every side and
 * on Node 20 its promise hooks are on from the first call, tracing or not. `ratio` null: no
 * instrumentation; otherwise the app's metrics hooks and the SDK registered as the app registers it
 * (startTracing: LogScopeContextManager) sampling that ratio of traces.
 */
function appSide(
  ratio: number | null,
  base: ReturnType<typeof stubClientOptions>,
): { call: Call; finish: () => Promise<void> } {
  const client = createPartnerPaymentsClient(
    ratio === null ? base : { ...base, ...new AppMetrics().partnerHooks() },
  );
  const call = () => withLogFields({ payout_id: STUB_PAYOUT_ID }, () => client.payouts.get(STUB_PAYOUT_ID));
  return ratio === null
    ? { call, finish: async () => undefined }
    : traced(call, ratio, new LogScopeContextManager());
}

/** `calls` calls of `call` by `callers` concurrent callers. */
async function callers(call: Call, calls: number, concurrency: number): Promise<void> {
  await callersUntil(call, concurrency, () => false, calls);
}

/**
 * Calls by `concurrency` callers until `done()` or `cap` calls; each caller finishes the call it
 * has in flight. Returns how many calls were made.
 */
async function callersUntil(
  call: Call,
  concurrency: number,
  done: () => boolean,
  cap: number,
): Promise<number> {
  let made = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (!done() && made < cap) {
        made++;
        await call();
      }
    }),
  );
  return made;
}

const callgrind = (what: string): Promise<unknown> =>
  promisify(execFile)('callgrind_control', [what, String(process.pid)]);

/**
 * The calls between the ends of two major GCs K cycles apart, counted. A window of a fixed number
 * of calls holds the old generation's major GCs (marking, sweeping: 30-35k instructions a call
 * when one falls in a 12,000-call window, Node 20, the app's client) or not, depending on where
 * the process stands in its cycle; a side that promotes a little more (the span batch's buffered
 * spans) reaches its next one inside a window where another side's falls just after it. Natively,
 * 60,000 calls ran 5 major GCs sampled out, 5 at 10% sampled, 6 with every trace: the steady
 * rates differ little, the windows' luck a lot. Counting whole cycles charges each side its own.
 */
async function gcCycleWindow(call: Call, concurrency: number, cycles: number, cap: number): Promise<number> {
  let majors = 0;
  const observer = new PerformanceObserver((list) => {
    for (const entry of list.getEntries())
      if ((entry as { detail?: { kind?: number } }).detail?.kind === constants.NODE_PERFORMANCE_GC_MAJOR)
        majors++;
  });
  observer.observe({ entryTypes: ['gc'] });
  try {
    const before = majors;
    await callersUntil(call, concurrency, () => majors > before, cap);
    if (majors === before) throw new Error(`instructions-child: no major GC in ${cap} calls`);
    await callgrind('--instr=on');
    const start = majors;
    const counted = await callersUntil(call, concurrency, () => majors >= start + cycles, cap);
    await callgrind('--instr=off');
    if (majors < start + cycles)
      throw new Error(`instructions-child: ${majors - start} of ${cycles} major GCs in ${cap} calls`);
    return counted;
  } finally {
    observer.disconnect();
  }
}

async function main(): Promise<void> {
  const { call, finish } = sideCalls(env('SIDE'), env('TARGET_URL'));
  const concurrency = Number(env('CALLERS'));
  const warmUp = Number(process.env.WARMUP_CALLS ?? '0');
  const cycles = Number(process.env.GC_CYCLES ?? '0');
  if (warmUp > 0) await callers(call, warmUp, concurrency);
  if (cycles > 0) {
    const counted = await gcCycleWindow(call, concurrency, cycles, Number(env('CALLS')));
    process.stderr.write(`counted calls: ${counted}\n`);
  } else {
    // Counted from here (the process was started with callgrind's instrumentation off): idle in
    // the event loop while callgrind_control reaches it through vgdb.
    if (warmUp > 0) await callgrind('--instr=on');
    await callers(call, Number(env('CALLS')), concurrency);
  }
  await finish();
}

main().catch((e: unknown) => {
  process.stderr.write(`instructions-child failed: ${e instanceof Error ? e.stack : String(e)}\n`);
  process.exit(1);
});
