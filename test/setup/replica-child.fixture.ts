/**
 * One replica of the reference app in its own process (forked by startReplicaProcess): another
 * instance on the same database, as in production, and on SQLite another process on the file.
 * Booted like the e2e suites boot the app (startApp, crons that never fire) from the environment.
 * IPC: sends { ready: url }; answers { id, result } or { id, error } to
 * { id, cmd: 'reconcile' } (one pass), { id, cmd: 'load', payoutId, calls, concurrency } (partner
 * reads through the app's client) and { id, cmd: 'stop' } (closes the app, then exits).
 */
import { PartnerPayoutsService } from '@partner-payments/nestjs';
import { startApp } from '../../apps/reference-app/src/app-bootstrap.util';
import { ReconciliationService } from '../../apps/reference-app/src/reconciliation/reconciliation.service';
import { mapWithConcurrency } from '../../apps/reference-app/src/reconciliation/concurrency.util';

export type ReplicaCommand =
  | { cmd: 'reconcile' }
  | { cmd: 'load'; payoutId: string; calls: number; concurrency: number }
  | { cmd: 'stop' };

async function main(): Promise<void> {
  const running = await startApp({ env: {}, envFile: false, host: '127.0.0.1', logger: ['error'] });
  await running.ready; // the start-up partner calls (pin, first token) are done, as startTestApp waits
  const handle = async (command: ReplicaCommand): Promise<unknown> => {
    if (command.cmd === 'reconcile') return running.app.get(ReconciliationService).runOnce();
    if (command.cmd === 'load') {
      const payouts = running.app.get(PartnerPayoutsService);
      const outcomes = await mapWithConcurrency(
        Array.from({ length: command.calls }),
        command.concurrency,
        () =>
          payouts.get(command.payoutId).then(
            () => true,
            () => false,
          ),
      );
      return { ok: outcomes.filter(Boolean).length, failed: outcomes.filter((o) => !o).length };
    }
    await running.close();
    return null;
  };
  process.on('message', (message: { id: number } & ReplicaCommand) => {
    void handle(message).then(
      (result) =>
        process.send?.({ id: message.id, result }, () => {
          if (message.cmd === 'stop') process.exit(0);
        }),
      (error: unknown) =>
        process.send?.({ id: message.id, error: String((error as Error)?.message ?? error) }),
    );
  });
  process.send?.({ ready: running.url });
}

main().catch((error: unknown) => {
  process.stderr.write(`replica failed to start: ${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});
