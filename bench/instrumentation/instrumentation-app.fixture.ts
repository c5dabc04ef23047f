/**
 * The reference app in its own process for bench/instrumentation.bench.ts: the webhook side, with
 * its instrumentation on (the metrics the hooks feed, and OTLP trace export to the sink given in
 * OTEL_EXPORTER_OTLP_ENDPOINT) or off (BENCH_INSTRUMENTATION=off: no hooks given to the module and
 * no tracing SDK registered, so the module's spans are the API's no-ops). Crons never fire, no demo.
 * IPC: sends { url } when listening; answers 'cpu' with { cpuUs } (CPU used so far); closes on 'stop'.
 */
import { AppMetrics } from '../../apps/reference-app/src/observability/app-metrics.service';
import { startApp } from '../../apps/reference-app/src/app-bootstrap.util';

const NEVER = '0 0 0 1 1 *';

if (process.env.BENCH_INSTRUMENTATION === 'off') {
  // No hooks given to the module (it then calls none); the registry still exists for /metrics.
  AppMetrics.prototype.partnerHooks = () => ({});
}

async function main(): Promise<void> {
  const running = await startApp({
    env: {
      PORT: '0',
      RECONCILE_CRON: NEVER,
      DEPOSIT_RECONCILE_CRON: NEVER,
      INBOX_REDELIVERY_CRON: NEVER,
      INBOX_PRUNE_CRON: NEVER,
      VERSION_PIN_CRON: NEVER,
      PAYOUT_REDRIVE_CRON: NEVER,
      DEMO: 'false',
    },
    envFile: false,
    host: '127.0.0.1',
    logger: ['error'],
  });
  await running.ready;
  // Exits by itself ('stop', or the bench gone), so a --cpu-prof profile is written.
  let closing: Promise<void> | null = null;
  const stop = (): void => void (closing ??= running.close().then(() => process.exit(0)));
  process.on('disconnect', stop);
  process.on('message', (msg) => {
    if (msg === 'stop') stop();
    // The bench reads this process's CPU before and after each round: the cost per delivery.
    if (msg === 'cpu') {
      const used = process.cpuUsage();
      process.send?.({ cpuUs: used.user + used.system });
    }
  });
  process.send?.({ url: running.url });
}

main().catch((e: unknown) => {
  process.stderr.write(`instrumentation app failed: ${e instanceof Error ? e.stack : String(e)}\n`);
  process.exit(1);
});
