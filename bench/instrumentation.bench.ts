/**
 * instrumentation (issue 13): what the observability costs, target <= 5% on the client and webhook
 * figures. The same workload with the instrumentation off, on with every trace exported, and on
 * with traces sampled at 10% (OTEL_TRACES_SAMPLER=parentbased_traceidratio, ARG 0.1), interleaved
 * (the order rotates each round). The figure is CPU time per operation in the process doing the
 * work, the median of each round's ratio to the same round's "off": wall-clock rates on a shared
 * 2-core machine move with the neighbours' load, CPU per operation far less (rates are in the notes).
 *  - client: payouts.get(id) by 16 callers against a partner stub in another process. On: the
 *    hooks feed the reference app's prom-client metrics and a NodeTracerProvider exports every
 *    span (or 10% of traces) by batch over OTLP/HTTP to a sink in the stub's process. Off: no
 *    hooks, no SDK (the module's spans are the API's no-ops).
 *  - webhook: signed user.created deliveries (autocannon, 8 connections) to three reference apps in
 *    their own processes on their own SQLite files (bench/instrumentation.app.ts); the CPU is the
 *    app process's, the handlers run after the 2xx included.
 * Usage: npm run build:libs && npx ts-node --transpile-only bench/instrumentation.bench.ts [--quick]
 * Progress on stderr; the last stdout line is the JSON report (bench contract, issue 14).
 */
import { fork, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';
import { context, propagation, trace } from '@opentelemetry/api';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import {
  BatchSpanProcessor,
  NodeTracerProvider,
  ParentBasedSampler,
  TraceIdRatioBasedSampler,
} from '@opentelemetry/sdk-trace-node';
import { createPartnerPaymentsClient, type PartnerPaymentsModuleOptions } from '@partner-payments/nestjs';
import { buildUserCreated, signPartnerWebhook } from '@partner-payments/testing';
import { AppMetrics } from '../apps/reference-app/src/observability/app.metrics';

const NAME = 'instrumentation';
const QUICK = process.argv.includes('--quick');
const ROUNDS = QUICK ? 3 : 9;
const CLIENT_ROUND_MS = QUICK ? 700 : 1500;
const WEBHOOK_ROUND_S = QUICK ? 1 : 2;
const CALLERS = 16;
const SAMPLE_RATIO = 0.1;
const SECRET = 'whsec_bench_instrumentation_0001';
const PAYOUT_ID = '0b9f3c1e-1111-4222-8333-444455556666';
const SIDES = ['off', 'on', 'sampled'] as const;
type Side = (typeof SIDES)[number];
interface Round {
  cpuUsPerOp: number;
  perSecond: number;
}
const children: ChildProcess[] = [];

const log = (m: string): void =>
  void process.stderr.write(`[${NAME}] ${new Date().toISOString().slice(11, 19)} ${m}\n`);
const median = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};
const load = (): number => Math.round(loadavg()[0] * 100) / 100;

function start<T>(file: string, env: Record<string, string> = {}): Promise<{ child: ChildProcess; info: T }> {
  const child = fork(join(__dirname, file), [], {
    execArgv: ['-r', 'ts-node/register/transpile-only'],
    env: { ...process.env, ...env },
    stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
  });
  children.push(child);
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${file} did not start within 90 s`)), 90_000);
    child.once('message', (info: T) => {
      clearTimeout(timer);
      resolve({ child, info });
    });
    child.once('exit', (code) => reject(new Error(`${file} exited early (${code})`)));
  });
}

/** Every side once per round, the order rotating, so no side always runs first or after the same one. */
async function interleave(run: (side: Side) => Promise<Round>): Promise<Record<Side, Round[]>> {
  const out: Record<Side, Round[]> = { off: [], on: [], sampled: [] };
  for (let i = 0; i < ROUNDS; i++)
    for (let k = 0; k < SIDES.length; k++) {
      const side = SIDES[(i + k) % SIDES.length];
      out[side].push(await run(side));
    }
  return out;
}

function figures(what: string, unit: string, plural: string, runs: Record<Side, Round[]>, notes: string) {
  const rate = (side: Side) => Math.round(median(runs[side].map((r) => r.perSecond)));
  return (['on', 'sampled'] as const).map((side) => {
    const ratio = median(runs[side].map((r, i) => r.cpuUsPerOp / runs.off[i].cpuUsPerOp));
    return {
      figure: `${what}: CPU per ${unit}, instrumentation on (${side === 'on' ? 'every trace exported' : `traces sampled at ${SAMPLE_RATIO * 100}%`}) vs off`,
      unit: `µs/${unit}`,
      ours: Math.round(median(runs[side].map((r) => r.cpuUsPerOp))),
      baseline: Math.round(median(runs.off.map((r) => r.cpuUsPerOp))),
      ratio: Math.round(ratio * 1000) / 1000,
      target: '≤ 1.05',
      pass: ratio <= 1.05,
      rounds: ROUNDS,
      notes: `${notes}; ${plural}/s (median) ${rate(side)} on vs ${rate('off')} off`,
    };
  });
}

function tracer(sinkUrl: string, ratio: number): NodeTracerProvider {
  return new NodeTracerProvider({
    sampler: new ParentBasedSampler({ root: new TraceIdRatioBasedSampler(ratio) }),
    spanProcessors: [new BatchSpanProcessor(new OTLPTraceExporter({ url: `${sinkUrl}/v1/traces` }))],
  });
}

async function clientFigures(partnerUrl: string, sinkUrl: string) {
  const base: PartnerPaymentsModuleOptions = {
    baseUrl: partnerUrl,
    environment: 'sandbox',
    apiKey: 'bench-api-key',
    clientId: 'bench-client',
    password: 'bench-password',
    rateLimit: false,
    logger: { log() {}, warn() {}, error() {} },
  };
  const metrics = new AppMetrics();
  const plain = createPartnerPaymentsClient(base);
  const hooked = createPartnerPaymentsClient({ ...base, ...metrics.partnerHooks() });
  const providers = { on: tracer(sinkUrl, 1), sampled: tracer(sinkUrl, SAMPLE_RATIO) };
  const loadBefore = load();
  const runs = await interleave(async (side) => {
    if (side !== 'off') providers[side].register();
    const client = side === 'off' ? plain : hooked;
    await client.payouts.get(PAYOUT_ID); // warm: token, connections
    let calls = 0;
    const cpuStart = process.cpuUsage();
    const started = performance.now();
    const end = started + CLIENT_ROUND_MS;
    await Promise.all(
      Array.from({ length: CALLERS }, async () => {
        while (performance.now() < end) {
          await client.payouts.get(PAYOUT_ID);
          calls++;
        }
      }),
    );
    const seconds = (performance.now() - started) / 1000;
    if (side !== 'off') await providers[side].forceFlush(); // exporting this round's spans is its cost
    const used = process.cpuUsage(cpuStart);
    if (side !== 'off') {
      trace.disable();
      context.disable();
      propagation.disable();
    }
    return { cpuUsPerOp: (used.user + used.system) / calls, perSecond: calls / seconds };
  });
  for (const p of Object.values(providers)) await p.shutdown();
  for (const side of SIDES)
    log(`client ${side}: ${runs[side].map((r) => Math.round(r.cpuUsPerOp)).join(' ')} µs/call`);
  return figures(
    'client',
    'call',
    'calls',
    runs,
    `payouts.get, c=${CALLERS}, ${CLIENT_ROUND_MS} ms rounds, the calling process's CPU (export flushed inside the round); load ${loadBefore}→${load()}`,
  );
}

function cpuOf(child: ChildProcess): Promise<number> {
  return new Promise((resolve) => {
    const on = (m: { cpuUs?: number }) => {
      if (typeof m.cpuUs !== 'number') return;
      child.off('message', on);
      resolve(m.cpuUs);
    };
    child.on('message', on);
    child.send('cpu');
  });
}

async function deliver(url: string, seconds: number): Promise<number> {
  const result = await autocannon({
    url: `${url}/webhooks/partner`,
    connections: 8,
    duration: seconds,
    requests: [
      {
        method: 'POST',
        setupRequest: (req) => {
          const body = JSON.stringify(
            buildUserCreated({ event_id: randomUUID(), user_id: randomUUID(), status: 'CREATED' }),
          );
          const signature = signPartnerWebhook(body, SECRET);
          return {
            ...req,
            body,
            headers: { 'content-type': 'application/json', 'x-signature-sha256': signature },
          };
        },
      },
    ],
  });
  return result['2xx'];
}

async function webhookFigures(partnerUrl: string, sinkUrl: string) {
  const dir = mkdtempSync(join(tmpdir(), 'bench-instrumentation-'));
  const env = (side: Side): Record<string, string> => ({
    DATABASE_URL: `sqlite:${join(dir, `${side}.sqlite`)}`,
    PARTNER_BASE_URL: partnerUrl,
    PARTNER_ENV: 'sandbox',
    PARTNER_API_KEY: 'bench-api-key',
    PARTNER_CLIENT_ID: 'bench-client',
    PARTNER_PASSWORD: 'bench-password',
    PARTNER_WEBHOOK_SECRET: SECRET,
    INBOX_ENCRYPTION_KEYS: `bench:${Buffer.alloc(32, 3).toString('base64')}`,
    ...(side === 'off' ? { BENCH_INSTRUMENTATION: 'off' } : { OTEL_EXPORTER_OTLP_ENDPOINT: sinkUrl }),
    ...(side === 'sampled'
      ? { OTEL_TRACES_SAMPLER: 'parentbased_traceidratio', OTEL_TRACES_SAMPLER_ARG: String(SAMPLE_RATIO) }
      : {}),
  });
  try {
    const apps = {} as Record<Side, { child: ChildProcess; info: { url: string } }>;
    for (const side of SIDES) apps[side] = await start<{ url: string }>('instrumentation.app.ts', env(side));
    for (const side of SIDES) await deliver(apps[side].info.url, 1); // warm-up
    const loadBefore = load();
    const runs = await interleave(async (side) => {
      const { child, info } = apps[side];
      const before = await cpuOf(child);
      const accepted = await deliver(info.url, WEBHOOK_ROUND_S);
      await new Promise((resolve) => setTimeout(resolve, 300)); // the handlers after the 2xx
      const used = (await cpuOf(child)) - before;
      return { cpuUsPerOp: used / Math.max(1, accepted), perSecond: accepted / WEBHOOK_ROUND_S };
    });
    for (const side of SIDES) {
      log(`webhook ${side}: ${runs[side].map((r) => Math.round(r.cpuUsPerOp)).join(' ')} µs/delivery`);
      apps[side].child.send('stop');
    }
    return figures(
      'webhook',
      'delivery',
      'deliveries',
      runs,
      `signed user.created, 8 connections, ${WEBHOOK_ROUND_S} s rounds, the app process's CPU (handlers after the 2xx included), one app per side on its own SQLite file; load ${loadBefore}→${load()}`,
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

async function main(): Promise<void> {
  setTimeout(() => {
    log('hard deadline passed, aborting');
    process.exit(3);
  }, 900_000).unref();
  const { info } = await start<{ partner: string; sink: string }>('instrumentation.servers.ts');
  log(
    `partner stub ${info.partner}, OTLP sink ${info.sink}; ${ROUNDS} rounds per side${QUICK ? ' (quick)' : ''}`,
  );
  const all = [
    ...(await clientFigures(info.partner, info.sink)),
    ...(await webhookFigures(info.partner, info.sink)),
  ];
  process.stdout.write(`${JSON.stringify({ bench: NAME, figures: all })}\n`);
}

main()
  .catch((e: unknown) => {
    log(`failed: ${e instanceof Error ? e.stack : String(e)}`);
    process.exitCode = 1;
  })
  .finally(() => {
    for (const child of children) if (child.exitCode === null) child.kill('SIGTERM');
    setTimeout(() => process.exit(), 2000).unref();
  });
