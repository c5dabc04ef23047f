/**
 * SIGKILL mid-reconciliation (part of the counted reliability suite): many payouts moved at the
 * partner while every webhook about them was lost (dropNextWebhooks: the app was "down", the
 * partner never re-sends, spec 6.1.4), the reference app (its own process) killed during the
 * reconciliation pass that reads them back, then restarted on the same database for one more pass.
 * Every payout's status then matches the partner's, none ever went backwards (at the kill each is
 * either untouched or already right), and the killed app's pass, which nobody alive takes part in
 * any more, is replaced rather than joined. On a SQLite file and on PostgreSQL.
 */
import { randomUUID } from 'node:crypto';
import type { PayoutStepName } from '@partner-payments/testing';
import { PayoutEntity, ReconciliationPassEntity } from '../../apps/reference-app/src/app-entities.constants';
import { mapWithConcurrency } from '../../apps/reference-app/src/reconciliation/concurrency.util';
import { RECONCILIATION_JOB } from '../../apps/reference-app/src/reconciliation/reconciliation.service';
import { appProcessPerSuite } from '../setup/app-process-suite.fixture';
import { eventually } from '../setup/app.fixture';
import { createFundedAccount, partnerClientFor } from '../setup/funded-account.fixture';
import { DATABASE_KINDS, openTestDatabaseAt } from '../setup/test-database.fixture';
import { recordTally } from './tally.fixture';

jest.setTimeout(60_000);

const PAYOUTS = 36;
/** Where each payout goes at the partner, round robin: a mix of moves, settled and not. */
const PATHS: PayoutStepName[][] = [
  [],
  ['PENDING'],
  ['PENDING', 'PROCESSING'],
  ['PENDING', 'PROCESSING', 'COMPLETED'],
  ['PENDING', 'FAILED'],
  ['CANCELLED'],
];
/** Each read of the pass takes this long at the partner, so the kill lands inside the pass. */
const READ_LATENCY_MS = 150;
const KILL_AFTER_READS = 18;

describe.each(DATABASE_KINDS)('SIGKILL mid-reconciliation on %s', (kind) => {
  // The per-payout path (a pass otherwise settles these 36 payouts from one page of the
  // partner's list, in one transaction, with nothing in between to kill), in batches small enough
  // that some are settled when the kill lands.
  const suite = appProcessPerSuite(kind, 'killrecon', {
    RECONCILE_USE_LIST: 'false',
    RECONCILE_BATCH_SIZE: '6',
    RECONCILE_CONCURRENCY: '2',
  });

  it('after the restart and one more pass every status matches the partner, none went backwards, the dead pass is replaced', async () => {
    const { app, sandbox, databaseUrl } = suite;
    const client = partnerClientFor(sandbox);
    const account = await createFundedAccount({ client, baseUrl: sandbox.baseUrl }, `recon-${kind}`);
    const created = await mapWithConcurrency(
      Array.from({ length: PAYOUTS }, (_, i) => i),
      6,
      async (i) => {
        const answer = await app.request('POST', '/payouts', {
          headers: { 'Idempotency-Key': randomUUID() },
          body: {
            virtual_account_id: account.virtualAccountId,
            recipient_id: account.recipientId,
            amount: `${10 + i}.00`,
            currency: 'USD',
          },
        });
        expect(answer.status).toBe(201);
        return answer.body.payout_id as string;
      },
    );
    await sandbox.control.flushWebhooks(); // payout.created reached the app
    // From here on every webhook is lost, as while the app is down.
    await sandbox.control.dropNextWebhooks(100_000);
    for (const [i, payoutId] of created.entries()) {
      const path = PATHS[i % PATHS.length];
      if (path.length > 0) await sandbox.control.advancePayout(payoutId, path);
    }
    await sandbox.control.flushWebhooks();
    const partnerStatus = new Map<string, string>();
    for await (const p of client.payouts.iterate({ user_id: account.userId, limit: 100 }))
      partnerStatus.set(p.payoutId, p.status);
    const toChange = created.filter((id) => partnerStatus.get(id) !== 'CREATED').length;

    const { dataSource } = await openTestDatabaseAt(databaseUrl);
    try {
      const statuses = async () =>
        new Map((await dataSource.getRepository(PayoutEntity).find()).map((r) => [r.payoutId, r.status]));
      const before = await statuses();
      // The webhooks really were lost: the app still believes every payout is CREATED.
      expect([...before.values()].filter((s) => s !== 'CREATED')).toEqual([]);

      await sandbox.control.addFault({
        kind: 'latency',
        route: 'GET /v1/payouts/:id',
        latencyMs: READ_LATENCY_MS,
      });
      const pass = app.request('POST', '/reconciliation/run').then(
        () => 'answered',
        () => 'no answer',
      );
      await eventually(
        async () =>
          ((await sandbox.control.counters()).requests['GET /v1/payouts/:id'] ?? 0) >= KILL_AFTER_READS
            ? true
            : undefined,
        20_000,
        `${KILL_AFTER_READS} reads of the reconciliation pass`,
      );
      await app.kill();
      expect(await pass).toBe('no answer'); // the pass died with the app
      await sandbox.control.clearFaults();
      const atKill = await statuses();
      const changedAtKill = created.filter((id) => atKill.get(id) !== before.get(id)).length;
      // The kill landed inside the pass: some payouts already read back, some not yet.
      expect(changedAtKill).toBeGreaterThan(0);
      expect(changedAtKill).toBeLessThan(toChange);

      await app.restart();
      // A pass that does not run (a lock left behind) or fails shows as mismatched payouts in the
      // table below before the test fails on it.
      const second = await app.request('POST', '/reconciliation/run');
      const after = await statuses();
      const passRow = await dataSource
        .getRepository(ReconciliationPassEntity)
        .findOneByOrFail({ job: RECONCILIATION_JOB });

      // Never backwards: at the kill a payout was either as before or already what the partner says.
      const backwards = created.filter(
        (id) => ![before.get(id), partnerStatus.get(id)].includes(atKill.get(id)),
      ).length;
      const mismatched = created.filter((id) => after.get(id) !== partnerStatus.get(id)).length;
      const unknown = [...partnerStatus.keys()].filter((id) => !after.has(id)).length;
      recordTally({
        suite: 'SIGKILL mid-reconciliation',
        database: kind,
        payoutsRequested: PAYOUTS,
        createdAtPartner: partnerStatus.size,
        knownToApp: [...partnerStatus.keys()].filter((id) => after.has(id)).length,
        unknown,
        wrong: backwards + mismatched,
      });
      expect(second.status).toBe(200);
      // The killed app's pass had no live participant left: replaced, not joined, so
      // the payouts it had claimed are checked again.
      expect(second.body).toMatchObject({ ran: true, failed: 0, opened: true });
      expect({ backwards, mismatched, unknown }).toEqual({ backwards: 0, mismatched: 0, unknown: 0 });
      expect(partnerStatus.size).toBe(PAYOUTS);
      expect(passRow).toMatchObject({ passId: second.body.passId, finishedAt: expect.any(Date) });
    } finally {
      await dataSource.destroy();
    }
  });
});
