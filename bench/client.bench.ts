/**
 * client: what the library's HTTP client costs over bare axios, against the same local server
 * (bench/replay-server.fixture.ts in its own process, answering with the sandbox's recorded bodies).
 *  - GET /v1/payouts/{id} throughput at c=64: payouts.get(id) (limiter off) vs axios with a
 *    keep-alive agent sending the same headers;
 *  - p50 latency at c=1, same two sides;
 *  - cold-token burst: 1000 concurrent payouts.get on a new client (no token) vs the same on a new
 *    client whose token was fetched first: exactly one POST /auth, and the cold run at most 1.2x.
 */
import { Agent } from 'node:http';
import axios from 'axios';
import type { PartnerPaymentsClient } from '@partner-payments/nestjs';
import {
  emitReport,
  hardDeadline,
  median,
  progress,
  QUICK,
  round,
  type BenchFigure,
  withLoad,
} from './lib/contract.util';
import { sandboxClient } from './lib/partner.client';
import { startReplayServer, type ReplayServer } from './lib/replay-recorder.fixture';
import { interleave, pairedRatio, runCallers, type LoadResult } from './lib/rounds.util';

const NAME = 'client';
/**
 * Many short rounds: on a shared 2-core machine the load changes from one second to the next, and
 * the two sides of a pair only see the same load when they run close together.
 */
const ROUNDS = QUICK ? 3 : 15;
const THROUGHPUT_MS = QUICK ? 1000 : 1500;
const LATENCY_MS = QUICK ? 500 : 1000;
const BURST = 1000;

/**
 * The bare baseline: axios with a keep-alive agent and the very headers the client sent. Redirects
 * off, as the client has them (its transport never follows one): axios's default (follow-redirects)
 * costs more per call and would flatter the client.
 */
async function bareGetter(server: ReplayServer): Promise<() => Promise<unknown>> {
  const { lastGetHeaders: sent, lastGetUrl: path } = await server.stats();
  const headers: Record<string, string> = {};
  for (const h of ['accept', 'x-api-key', 'authorization', 'x-api-version'])
    if (sent[h] !== undefined) headers[h] = sent[h];
  const bare = axios.create({
    baseURL: server.url,
    httpAgent: new Agent({ keepAlive: true }),
    maxRedirects: 0,
    headers,
  });
  return async () => (await bare.get(path)).data;
}

function describe(r: LoadResult): string {
  return `${Math.round(r.perSecond)} calls/s, p50 ${round(median(r.latencies), 3)} ms, ${Math.round(r.cpuUsPerCall)} µs CPU/call, ${r.failed} failed`;
}

/** The client process's CPU per call, ours vs baseline (medians of the rounds). */
function cpuNote(runs: { ours: LoadResult[]; baseline: LoadResult[] }): string {
  const us = (rs: LoadResult[]) => Math.round(median(rs.map((r) => r.cpuUsPerCall)));
  return `CPU per call in the calling process ${us(runs.ours)} µs vs ${us(runs.baseline)} µs`;
}

async function throughputAndLatency(server: ReplayServer): Promise<BenchFigure[]> {
  const client = sandboxClient(server.url, { rateLimit: false });
  const ours = () => client.payouts.get(server.payoutId);
  await ours(); // the token, and the headers the baseline copies
  const bare = await bareGetter(server);
  const figures: BenchFigure[] = [];

  const c64 = await withLoad(() =>
    interleave({
      name: `${NAME} c=64`,
      rounds: ROUNDS,
      ours: () => runCallers(ours, 64, THROUGHPUT_MS),
      baseline: () => runCallers(bare, 64, THROUGHPUT_MS),
      describe,
    }),
  );
  const oursRate = c64.value.ours.map((r) => r.perSecond);
  const bareRate = c64.value.baseline.map((r) => r.perSecond);
  const ratio = pairedRatio(oursRate, bareRate);
  const failed = [...c64.value.ours, ...c64.value.baseline].reduce((n, r) => n + r.failed, 0);
  figures.push({
    figure: 'client GET /v1/payouts/{id} throughput at c=64',
    unit: 'req/s',
    ours: Math.round(median(oursRate)),
    baseline: Math.round(median(bareRate)),
    ratio,
    target: '≥ 0.95',
    pass: ratio >= 0.95 && failed === 0,
    rounds: ROUNDS,
    notes:
      `${THROUGHPUT_MS / 1000} s per round; p50 ${round(median(c64.value.ours.map((r) => median(r.latencies))), 2)} ms vs ` +
      `${round(median(c64.value.baseline.map((r) => median(r.latencies))), 2)} ms; ${cpuNote(c64.value)}; failed calls ${failed}; ${c64.load}`,
  });

  const c1 = await withLoad(() =>
    interleave({
      name: `${NAME} c=1`,
      rounds: ROUNDS,
      ours: () => runCallers(ours, 1, LATENCY_MS),
      baseline: () => runCallers(bare, 1, LATENCY_MS),
      describe,
    }),
  );
  const oursP50 = c1.value.ours.map((r) => median(r.latencies));
  const bareP50 = c1.value.baseline.map((r) => median(r.latencies));
  const latencyRatio = pairedRatio(oursP50, bareP50);
  figures.push({
    figure: 'client p50 at c=1',
    unit: 'ms',
    ours: round(median(oursP50), 3),
    baseline: round(median(bareP50), 3),
    ratio: latencyRatio,
    target: '≤ 1.05',
    pass: latencyRatio <= 1.05,
    rounds: ROUNDS,
    notes: `${LATENCY_MS / 1000} s of sequential calls per round (${Math.round(median(c1.value.ours.map((r) => r.calls)))} calls); ${cpuNote(c1.value)}; ${c1.load}`,
  });
  return figures;
}

interface BurstRun {
  wallMs: number;
  authCalls: number;
  failed: number;
}

async function burst(server: ReplayServer, warm: boolean): Promise<BurstRun> {
  const client: PartnerPaymentsClient = sandboxClient(server.url, { rateLimit: false });
  if (warm) await client.auth.getToken();
  const before = (await server.stats()).authCalls;
  const started = performance.now();
  const outcomes = await Promise.allSettled(
    Array.from({ length: BURST }, () => client.payouts.get(server.payoutId)),
  );
  const wallMs = performance.now() - started;
  return {
    wallMs,
    authCalls: (await server.stats()).authCalls - before,
    failed: outcomes.filter((o) => o.status === 'rejected').length,
  };
}

async function coldTokenBurst(server: ReplayServer): Promise<BenchFigure> {
  const runs = await withLoad(() =>
    interleave({
      name: `${NAME} burst`,
      rounds: ROUNDS,
      ours: () => burst(server, false),
      baseline: () => burst(server, true),
      describe: (r) => `${Math.round(r.wallMs)} ms, ${r.authCalls} POST /auth, ${r.failed} failed`,
    }),
  );
  const cold = runs.value.ours;
  const warm = runs.value.baseline;
  const ratio = pairedRatio(
    cold.map((r) => r.wallMs),
    warm.map((r) => r.wallMs),
  );
  const auths = cold.map((r) => r.authCalls);
  const failed = [...cold, ...warm].reduce((n, r) => n + r.failed, 0);
  return {
    figure: 'cold-token burst, 1000 calls',
    unit: 'ms',
    ours: Math.round(median(cold.map((r) => r.wallMs))),
    baseline: Math.round(median(warm.map((r) => r.wallMs))),
    ratio,
    target: 'exactly 1 POST /auth; total ≤ 1.2× the warm-token run',
    pass: auths.every((n) => n === 1) && ratio <= 1.2 && failed === 0,
    rounds: ROUNDS,
    notes: `POST /auth per cold run: ${auths.join(', ')} (warm runs: ${warm.map((r) => r.authCalls).join(', ')}); failed calls ${failed}; baseline = the same burst on a client whose token was fetched first; ${runs.load}`,
  };
}

async function main(): Promise<void> {
  hardDeadline(QUICK ? 120_000 : 300_000, NAME);
  progress(NAME, 'recording the sandbox answers, starting the replay server');
  const server = await startReplayServer();
  try {
    const figures = await throughputAndLatency(server);
    figures.push(await coldTokenBurst(server));
    emitReport({ bench: NAME, figures });
  } finally {
    await server.stop();
  }
}

main().catch((e: unknown) => {
  process.stderr.write(`${NAME} failed: ${e instanceof Error ? e.stack : String(e)}\n`);
  process.exit(1);
});
