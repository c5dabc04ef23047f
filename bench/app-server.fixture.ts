/**
 * The reference app in its own process (forked by webhook-ingest.bench.ts and inbox-drain.bench.ts),
 * so the load generator and the measuring never share its event loop. Booted exactly like the e2e
 * suites (startApp, no demo); the database, the partner and the cron expressions come from the
 * environment the benchmark gives it. On 'stop' it closes (which drains webhook processing).
 */
import { startApp } from '../apps/reference-app/src/app-bootstrap.util';
import { serveUntilStopped } from './lib/forked-process.fixture';

async function main(): Promise<void> {
  const running = await startApp({
    env: { PORT: '0', DEMO: 'false' },
    envFile: false,
    host: '127.0.0.1',
    logger: ['error'],
  });
  serveUntilStopped(running.url, async () => {
    const started = performance.now();
    await running.close();
    return { closedMs: Math.round(performance.now() - started) };
  });
}

main().catch((e: unknown) => {
  process.stderr.write(`reference app failed: ${e instanceof Error ? e.message : String(e)}\n`);
  process.exit(1);
});
