/**
 * instrumentation: what the observability costs, target <= 5% on the client and webhook
 * figures. The same workload with the instrumentation off, on with every trace exported, and on
 * with traces sampled at 10% (OTEL_TRACES_SAMPLER=parentbased_traceidratio, ARG 0.1), and off a
 * second time (an A/A control: the noise floor of the ratios), interleaved (the order rotates each
 * round). The figure is CPU time per operation in the process doing the
 * work, the median of each round's ratio to the same round's "off": wall-clock rates on a shared
 * 2-core machine move with the neighbours' load, CPU per operation far less (rates are in the notes).
 *  - client: payouts.get(id) by 16 callers against a partner stub in another process. On: the
 *    hooks feed the reference app's prom-client metrics and a NodeTracerProvider exports every
 *    span (or 10% of traces) by batch over OTLP/HTTP to a sink in the stub's process. Off: no
 *    hooks, no SDK (the module's spans are the API's no-ops).
 *  - webhook: signed user.created deliveries (autocannon, 8 connections) to three reference apps in
 *    their own processes on their own SQLite files (bench/instrumentation/instrumentation-app.fixture.ts); the CPU is the
 *    app process's, the handlers run after the 2xx included.
 * Usage: npm run build:libs && npx ts-node --transpile-only bench/instrumentation.bench.ts [--quick]
 * Progress on stderr; the last stdout line is the JSON report (bench contract).
 */
import { context, propagation, trace } from '@opentelemetry/api';
import { createPartnerPaymentsClient } from '@partner-payments/nestjs';
import { AppMetrics } from '../apps/reference-app/src/observability/app-metrics.service';
import {
  CALLERS,
  children,
  CLIENT_ROUND_MS,
  figures,
  interleave,
  load,
  log,
  NAME,
  PAYOUT_ID,
  QUICK,
  ROUNDS,
  SAMPLE_RATIO,
  SIDES,
  start,
  stubClientOptions,
  tracer,
} from './instrumentation/instrumentation-rounds.fixture';
import { webhookFigures } from './instrumentation/instrumentation-webhook.fixture';

async function clientFigures(partnerUrl: string, sinkUrl: string) {
  const base = stubClientOptions(partnerUrl);
  const metrics = new AppMetrics();
  const plain = createPartnerPaymentsClient(base);
  const hooked = createPartnerPaymentsClient({ ...base, ...metrics.partnerHooks() });
  const providers = { on: tracer(sinkUrl, 1), sampled: tracer(sinkUrl, SAMPLE_RATIO) };
  const loadBefore = load();
  const runs = await interleave(async (side) => {
    // off and control (A/A) are the same plain client: no hooks, no SDK.
    const traced = side === 'on' || side === 'sampled' ? providers[side] : null;
    traced?.register();
    const client = traced ? hooked : plain;
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
    await traced?.forceFlush(); // exporting this round's spans is its cost
    const used = process.cpuUsage(cpuStart);
    if (traced) {
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

async function main(): Promise<void> {
  setTimeout(() => {
    log('hard deadline passed, aborting');
    process.exit(3);
  }, 900_000).unref();
  const { info } = await start<{ partner: string; sink: string }>('instrumentation-servers.fixture.ts');
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
  .finally(async () => {
    // Children exit by themselves once disconnected (so a --cpu-prof profile gets written); 5 s grace.
    const exits = children
      .filter((child) => child.exitCode === null)
      .map((child) => new Promise((resolve) => child.once('exit', resolve)));
    for (const child of children) if (child.connected) child.disconnect();
    await Promise.race([Promise.all(exits), new Promise((resolve) => setTimeout(resolve, 5000))]);
    for (const child of children) if (child.exitCode === null) child.kill('SIGTERM');
    setTimeout(() => process.exit(), 2000).unref();
  });
