/**
 * The reference app in its own process (forked by webhook-ingest.bench.ts), so autocannon and the
 * signing of each delivery never share the app's event loop. Booted exactly like the e2e suites
 * (startApp, crons that never fire, no demo) on the SQLite file and the partner given in the env.
 * IPC: sends { url } when listening; on 'stop' closes the app (which drains webhook processing)
 * and sends { closedMs }.
 */
import { startApp } from '../apps/reference-app/src/app-bootstrap.util';

const NEVER = '0 0 0 1 1 *'; // 1 January: no job runs during the benchmark

async function main(): Promise<void> {
  const running = await startApp({
    env: {
      PORT: '0',
      RECONCILE_CRON: NEVER,
      INBOX_REDELIVERY_CRON: NEVER,
      VERSION_PIN_CRON: NEVER,
      DEMO: 'false',
    },
    envFile: false,
    host: '127.0.0.1',
    logger: ['error'],
  });
  process.on('message', (msg) => {
    if (msg !== 'stop') return;
    const started = performance.now();
    void running.close().then(() => {
      process.send?.({ closedMs: Math.round(performance.now() - started) }, () => process.exit(0));
    });
  });
  process.send?.({ url: running.url });
}

main().catch((e: unknown) => {
  process.stderr.write(`webhook-ingest app failed: ${e instanceof Error ? e.message : String(e)}\n`);
  process.exit(1);
});
