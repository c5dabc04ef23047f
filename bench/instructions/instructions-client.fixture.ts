/**
 * The client group of instructions.ts: the module's client against bare axios (c=64 and c=1) and
 * the instrumentation sides, each a process under callgrind (instructions-child.fixture.ts).
 */
import { arg, type Count, NAME, underCallgrind } from './instructions-count.fixture';
import { figure, INSTRUMENTED, perOperation, type Runs } from './instructions-figures.fixture';
import { progress, QUICK, type BenchFigure } from '../lib/contract.util';
import { sandboxClient } from '../lib/partner.client';
import { startReplayServer } from '../lib/replay-recorder.fixture';
/** The client in the reference app's setting: traces sampled out, at 10%, all (instructions-child's appSide). */
const APP_SIDES = [
  ['app-out', 'metrics and every trace sampled out'],
  ['app-sampled', 'metrics and traces sampled at 10%'],
  ['app-on', 'metrics and every trace exported'],
] as const;

const CLIENT_RUNS: Runs = { short: QUICK ? 200 : 1000, long: QUICK ? 700 : 4000, unit: 'call' };
/**
 * The instrumentation sides (off, hooks, sampled, on and the app's): counted over whole cycles of
 * major GCs (--gc-cycles K, default 2, 0 with --quick; 0 for the short and long runs), since their costs differ by
 * about as much as one major GC falling in a window or not (instructions-child's gcCycleWindow).
 * `long` caps the calls a window may take. The c=64 and c=1 pairs keep the short and long runs.
 */
const GC_CYCLES = Number(arg('--gc-cycles') ?? (QUICK ? 0 : 2));
const INSTRUMENTATION_RUNS: Runs =
  GC_CYCLES > 0 ? { short: 0, long: 100_000, unit: 'call', gcCycles: GC_CYCLES } : CLIENT_RUNS;

interface Side {
  side: string;
  /** The child's SIDE when it differs from the side's name (the same client at another concurrency). */
  kind?: string;
  callers: number;
  env: Record<string, string>;
}

/** Instructions of one client process (instructions-child.fixture.ts) making `calls` calls. */
/**
 * Calls made before counting starts, as in a long-running service: the call path and the span
 * exporter's (a request per 512 spans) compiled and their caches filled. Counted from cold, the
 * export path ran a few times per count, interpreted, and "off" counted 1,208k instructions per
 * call where it counts 857k warm (Node 20, 7d849a6).
 */
const CLIENT_WARM_UP = QUICK ? 2000 : 8000;

function countClient(side: Side, calls: number, gcCycles = 0): Promise<Count> {
  return underCallgrind(
    'instructions-child.fixture.ts',
    {
      ...side.env,
      SIDE: side.kind ?? side.side,
      CALLS: String(calls),
      CALLERS: String(side.callers),
      WARMUP_CALLS: String(CLIENT_WARM_UP),
      ...(gcCycles > 0 ? { GC_CYCLES: String(gcCycles) } : {}),
    },
    { later: true },
  ).collected;
}

const PAIRS = new Set(['ours', 'bare', 'ours-c1', 'bare-c1']);

/** The client group's figures; `onlySides` (--sides) counts only those sides. */
export async function clientGroup(
  stub: { partner: string; sink: string },
  onlySides: readonly string[] | undefined,
): Promise<BenchFigure[]> {
  progress(NAME, 'recording the sandbox answers, starting the replay server');
  const replay = await startReplayServer();
  try {
    // The bare side sends what the client sent (client.bench.ts's bareGetter).
    await sandboxClient(replay.url, { rateLimit: false }).payouts.get(replay.payoutId);
    const { lastGetHeaders: sent, lastGetUrl } = await replay.stats();
    const headers: Record<string, string> = {};
    for (const h of ['accept', 'x-api-key', 'authorization', 'x-api-version'])
      if (sent[h] !== undefined) headers[h] = sent[h];
    const replayEnv = {
      TARGET_URL: replay.url,
      PAYOUT_ID: replay.payoutId,
      BARE_PATH: lastGetUrl,
      BARE_HEADERS: JSON.stringify(headers),
    };
    const stubEnv = { TARGET_URL: stub.partner, SINK_URL: stub.sink };
    const sides = [
      { side: 'ours', callers: 64, env: replayEnv },
      { side: 'bare', callers: 64, env: replayEnv },
      // The timed c=1 row's pair: one call at a time, the event loop idle between calls.
      { side: 'ours-c1', kind: 'ours', callers: 1, env: replayEnv },
      { side: 'bare-c1', kind: 'bare', callers: 1, env: replayEnv },
      ...['off', 'hooks', 'sampled', 'on', 'app-off', ...APP_SIDES.map(([side]) => side)].map((side) => ({
        side,
        callers: 16,
        env: stubEnv,
      })),
    ].filter((s) => onlySides === undefined || onlySides.includes(s.side));
    const per = new Map([
      ...(await perOperation(
        sides.filter((s) => PAIRS.has(s.side)),
        CLIENT_RUNS,
        (side, calls) => countClient(side, calls),
      )),
      ...(await perOperation(
        sides.filter((s) => !PAIRS.has(s.side)),
        INSTRUMENTATION_RUNS,
        (side, calls) => countClient(side, calls, INSTRUMENTATION_RUNS.gcCycles),
      )),
    ]);
    // Each figure with the two sides it compares; a partial run (--sides) reports those it counted.
    const figures: Array<[[string, string], (sides: [string, string]) => BenchFigure]> = [
      [
        ['ours', 'bare'],
        (sides) =>
          figure(
            'client GET /v1/payouts/{id} at c=64: instructions per call, ours vs bare axios',
            per,
            CLIENT_RUNS,
            sides,
            ['reported (the timed row: ≥ 0.95 throughput)', null],
            'the calling process, replay server in another process',
          ),
      ],
      [
        ['ours-c1', 'bare-c1'],
        (sides) =>
          figure(
            'client GET /v1/payouts/{id} at c=1: instructions per call, ours vs bare axios',
            per,
            CLIENT_RUNS,
            sides,
            ['reported (the timed row: p50 ≤ 1.05)', null],
            'the calling process, one call at a time, replay server in another process',
          ),
      ],
      ...INSTRUMENTED.map(([side, what]): [[string, string], (sides: [string, string]) => BenchFigure] => [
        [side, 'off'],
        (sides) =>
          figure(
            `client: instructions per call, instrumentation ${what} vs off`,
            per,
            INSTRUMENTATION_RUNS,
            sides,
            ['≤ 1.05', 1.05],
            'payouts.get by 16 callers against the partner stub, OTLP/HTTP export to the sink included',
          ),
      ]),
      ...APP_SIDES.map(([side, what]): [[string, string], (sides: [string, string]) => BenchFigure] => [
        [side, 'app-off'],
        (sides) =>
          figure(
            `client in the reference app's setting: instructions per call, ${what} vs off`,
            per,
            INSTRUMENTATION_RUNS,
            sides,
            side === 'app-sampled' ? ['≤ 1.05', 1.05] : ['reported', null],
            "each call in the app's log scope (as reconciliation calls it), the SDK with the app's LogScopeContextManager; 16 callers against the partner stub",
          ),
      ]),
    ];
    return figures.filter(([sides]) => sides.every((s) => per.has(s))).map(([sides, make]) => make(sides));
  } finally {
    await replay.stop();
  }
}
