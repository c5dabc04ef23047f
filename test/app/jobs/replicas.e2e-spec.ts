/**
 * The jobs on two replicas of the app on one PostgreSQL database: the version pin learnt by the
 * replica that found its job locked, one payout for one Idempotency-Key sent to both, and one
 * reconciliation pass per cron tick.
 */
import { randomUUID } from 'node:crypto';
import { PartnerApiVersionState } from '../../../libs/partner-payments/src/http/api-version-state.service';
import type { PartnerSandbox } from '@partner-payments/testing';
import type { RunningApp } from '../../../apps/reference-app/src/app-bootstrap.util';
import { ReconciliationPassEntity } from '../../../apps/reference-app/src/app-entities.constants';
import { PARTNER_VERSION_PIN_JOB, partnerJobLockKey, PartnerUnitOfWork } from '@partner-payments/typeorm';
import { newPgClient } from '../../../scripts/pg-client.util';
import { appRequest, startTestApp, startTestSandbox } from '../../setup/app.fixture';
import { createFundedAccount, type FundedAccount } from '../../setup/funded-account.fixture';
import { databaseUrlFor } from '../../setup/test-database.fixture';

// Boots real servers and databases; jest.config.js's per-project testTimeout is not applied by Jest.
jest.setTimeout(30_000);

describe('two replicas on one PostgreSQL database', () => {
  let sandbox: PartnerSandbox;
  let a: RunningApp;
  let b: RunningApp;
  let account: FundedAccount;

  beforeAll(async () => {
    sandbox = await startTestSandbox();
    const db = await databaseUrlFor('postgres', 'replicas');
    a = await startTestApp(db.url, {}, sandbox);
    b = await startTestApp(db.url, {}, sandbox);
    account = await createFundedAccount(a, 'replicas');
    await appRequest(a)
      .post('/payouts')
      .set('Idempotency-Key', randomUUID())
      .send({
        virtual_account_id: account.virtualAccountId,
        recipient_id: account.recipientId,
        amount: '7.00',
        currency: 'USD',
      })
      .expect(201);
  });
  afterAll(async () => {
    await a?.close();
    await b?.close();
    await sandbox?.close();
  });

  it('a replica that finds the pin job locked still learns the pin the other replica stored', async () => {
    const versionState = b.app.get(PartnerApiVersionState);
    versionState.reset(); // as if b had started before a stored the pin
    const pg = newPgClient({
      connectionString: b.config.database.kind === 'postgres' ? b.config.database.url : '',
    });
    await pg.connect();
    try {
      await pg.query('SELECT pg_advisory_lock($1::bigint)', [partnerJobLockKey(PARTNER_VERSION_PIN_JOB)]);
      const res = await appRequest(b).post('/versioning/pin').expect(200);
      expect(res.body).toMatchObject({ action: 'locked', pinned: '2026-04-14' });
      expect(versionState.pinnedVersion).toBe('2026-04-14');
    } finally {
      await pg.end();
    }
  });

  it('one Idempotency-Key sent to both replicas at once creates one payout; a replay on either returns it', async () => {
    const key = randomUUID();
    const body = {
      virtual_account_id: account.virtualAccountId,
      recipient_id: account.recipientId,
      amount: '8.00',
      currency: 'USD',
    };
    const before = (await sandbox.control.counters()).created.payouts;
    const answers = await Promise.all(
      [a, b, a, b].map((r) => appRequest(r).post('/payouts').set('Idempotency-Key', key).send(body)),
    );
    expect(answers.every((r) => r.status === 201 || r.status === 409)).toBe(true);
    const ids = new Set(answers.filter((r) => r.status === 201).map((r) => r.body.payout_id));
    expect(ids.size).toBe(1);
    const [payoutId] = [...ids];
    for (const r of [a, b]) {
      const replay = await appRequest(r).post('/payouts').set('Idempotency-Key', key).send(body);
      expect(replay.status).toBe(201);
      expect(replay.body.payout_id).toBe(payoutId);
    }
    expect((await sandbox.control.counters()).created.payouts).toBe(before + 1);
    // The other replica's body under the same key is refused on either replica.
    await appRequest(b)
      .post('/payouts')
      .set('Idempotency-Key', key)
      .send({ ...body, amount: '9.00' })
      .expect(422);
  });
});

describe('cron ticks on two replicas on one PostgreSQL database', () => {
  it('two replicas firing the same per-second ticks open one reconciliation pass per tick, not one each', async () => {
    const sandbox = await startTestSandbox();
    const db = await databaseUrlFor('postgres', 'ticks');
    const env = { RECONCILE_CRON: '* * * * * *' }; // every second
    const a = await startTestApp(db.url, env, sandbox);
    const b = await startTestApp(db.url, env, sandbox);
    try {
      // Both replicas join the pass of a tick; the pass row names the tick it serves.
      const passes = new Map<string, number>();
      const t0 = Date.now();
      // 5 s of per-second ticks for at least 2 passes: room for ticks a loaded machine delays.
      while (Date.now() - t0 < 5000) {
        const row = await a.app
          .get(PartnerUnitOfWork)
          .run((m) => m.findOne(ReconciliationPassEntity, { where: { job: 'payout-reconciliation' } }));
        if (row?.passId && row.tick) passes.set(row.passId, row.tick.getTime());
        await new Promise((r) => setTimeout(r, 50));
      }
      const ticks = [...passes.values()];
      expect(ticks.length).toBeGreaterThanOrEqual(2); // the job does run every tick...
      expect(new Set(ticks).size).toBe(ticks.length); // ...with one pass per tick, not one per replica
    } finally {
      await a.close();
      await b.close();
      await sandbox.close();
    }
  });
});
