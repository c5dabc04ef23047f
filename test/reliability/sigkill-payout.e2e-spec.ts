/**
 * SIGKILL mid-POST /payouts with the partner's answer lost: the partner creates
 * the payout, the app (its own process) dies before storing the answer, and the payout.created
 * webhook is lost too (the partner never re-sends, spec 6.1.4). The request row stays pending; after
 * the restart the outbox re-drive job re-sends it with its stored key, the partner replays the
 * payout, and the app stores it: 0 payouts at the partner unknown to the app, and the caller's
 * retry with the same key gets that same payout. On a SQLite file and on PostgreSQL.
 *
 * The crash window is staged with the sandbox's accepted_then_stall fault: the partner writes the
 * payout at once and holds its answer; the kill lands while it does.
 */
import { randomUUID } from 'node:crypto';
import { PayoutEntity } from '../../apps/reference-app/src/app-entities.constants';
import { PartnerPayoutRequestEntity } from '@partner-payments/typeorm';
import { appProcessPerSuite } from '../setup/app-process-suite.fixture';
import { eventually } from '../setup/app.fixture';
import { createFundedAccount, partnerClientFor } from '../setup/funded-account.fixture';
import { DATABASE_KINDS, openTestDatabaseAt } from '../setup/test-database.fixture';
import { recordTally } from './tally.fixture';

jest.setTimeout(60_000);

const PAYOUT_ROUTE = 'POST /v1/virtual-accounts/:id/payout';
/** Payouts made normally before the crash, so the check covers more than the lost one. */
const BEFORE_CRASH = 3;

describe.each(DATABASE_KINDS)('SIGKILL mid-POST /payouts, answer and webhook lost, on %s', (kind) => {
  // Partner attempts of at most 2 s with no retry, so the re-drive's grace can be short (8 s; the
  // app refuses a grace shorter than one full partner call: two token calls and two creates).
  const suite = appProcessPerSuite(kind, 'killpayout', {
    PARTNER_TIMEOUT_MS: '2000',
    PARTNER_MAX_RETRIES: '0',
    PAYOUT_REDRIVE_GRACE_SECONDS: '8',
  });

  it('after the restart and the outbox re-drive the app knows every payout; the retry gets the same one', async () => {
    const { app, sandbox, databaseUrl } = suite;
    const client = partnerClientFor(sandbox);
    const account = await createFundedAccount({ client, baseUrl: sandbox.baseUrl }, `killpay-${kind}`);
    const body = (amount: string) => ({
      virtual_account_id: account.virtualAccountId,
      recipient_id: account.recipientId,
      amount,
      currency: 'USD',
    });
    for (let i = 0; i < BEFORE_CRASH; i++) {
      const answer = await app.request('POST', '/payouts', {
        headers: { 'Idempotency-Key': randomUUID() },
        body: body(`${20 + i}.00`),
      });
      expect(answer.status).toBe(201);
    }
    await sandbox.control.flushWebhooks();
    const partnerPayouts = async () => {
      const ids: string[] = [];
      for await (const p of client.payouts.iterate({ user_id: account.userId, limit: 100 }))
        ids.push(p.payoutId);
      return ids;
    };

    // The crash: the partner writes, holds its answer; its webhook is lost; the app dies meanwhile.
    await sandbox.control.addFault({ kind: 'accepted_then_stall', route: PAYOUT_ROUTE, latencyMs: 20_000 });
    await sandbox.control.dropNextWebhooks(1, 'payout.created');
    const key = randomUUID();
    const lostBody = body('31.00');
    const createdBefore = (await sandbox.control.counters()).created.payouts;
    const caller = app
      .request('POST', '/payouts', { headers: { 'Idempotency-Key': key }, body: lostBody })
      .then(
        () => 'answered',
        () => 'no answer',
      );
    await eventually(
      async () => ((await sandbox.control.counters()).created.payouts > createdBefore ? true : undefined),
      10_000,
      'the partner to create the payout',
    );
    await app.kill();
    expect(await caller).toBe('no answer');
    await sandbox.control.clearFaults();

    const { dataSource } = await openTestDatabaseAt(databaseUrl);
    try {
      const known = async () =>
        new Set((await dataSource.getRepository(PayoutEntity).find()).map((p) => p.payoutId));
      const atPartner = await partnerPayouts();
      const knownAtCrash = await known();
      // The crash really lost it: the partner has it, the app does not, its key is still pending.
      const unknownAtCrash = atPartner.filter((id) => !knownAtCrash.has(id));
      expect(unknownAtCrash).toHaveLength(1);
      expect(
        (await dataSource.getRepository(PartnerPayoutRequestEntity).findOneByOrFail({ idempotencyKey: key }))
          .state,
      ).toBe('pending');

      await app.restart();
      // The outbox re-drive job (its cron is off in tests): run it until the grace has passed and
      // it has re-sent the pending request. A re-drive that never stores it is counted below
      // (unknown) before the test fails, so the table shows the failure instead of losing the row.
      const redrive = await eventually(
        async () => {
          const run = await app.request('POST', '/payouts/redrive/run');
          if (run.status !== 200)
            throw new Error(`POST /payouts/redrive/run answered ${run.status}: no outbox re-drive job`);
          const here = await known();
          return atPartner.every((id) => here.has(id)) ? true : undefined;
        },
        30_000,
        'the outbox re-drive to store the payout the crash lost',
      ).then(
        () => null,
        (error: unknown) => error,
      );
      // Counted after the re-drive and before the caller's retry, which would store the payout
      // itself: the column measures the re-drive, so a re-drive that does nothing shows as unknown.
      const afterRedrive = await partnerPayouts();
      const knownAfterRedrive = await known();
      const unknown = afterRedrive.filter((id) => !knownAfterRedrive.has(id)).length;
      const retry = await app.request('POST', '/payouts', {
        headers: { 'Idempotency-Key': key },
        body: lostBody,
      });
      const finalAtPartner = await partnerPayouts();
      recordTally({
        suite: 'SIGKILL mid-POST /payouts',
        database: kind,
        payoutsRequested: BEFORE_CRASH + 1,
        createdAtPartner: afterRedrive.length,
        knownToApp: afterRedrive.length - unknown,
        unknown,
        duplicate: Math.max(0, finalAtPartner.length - (BEFORE_CRASH + 1)),
      });
      if (redrive) throw redrive;
      expect(unknown).toBe(0);
      expect(finalAtPartner).toHaveLength(BEFORE_CRASH + 1); // the retry made no second payout
      expect(retry.status).toBe(201);
      expect(retry.body.payout_id).toBe(unknownAtCrash[0]);
    } finally {
      await dataSource.destroy();
    }
  });
});
