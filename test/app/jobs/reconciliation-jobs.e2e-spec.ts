/**
 * The reconciliation job through its endpoint, on a SQLite file and on PostgreSQL: a payout
 * cancelled or released from a hold only on the resource (spec 6.4.8) is settled from the resource,
 * a payout whose write throws or that cannot be read is counted and backed off; and, on SQLite, the order and
 * batches of the per-payout path.
 */
import { randomUUID } from 'node:crypto';
import { PayoutEntity } from '../../../apps/reference-app/src/app-entities.constants';
import {
  PayoutProjection,
  type PayoutObservation,
} from '../../../apps/reference-app/src/payouts/payout-projection.service';
import { PartnerUnitOfWork } from '@partner-payments/typeorm';
import { appRequest, eventually, startTestApp, startTestSandbox } from '../../setup/app.fixture';
import { createFundedAccount } from '../../setup/funded-account.fixture';
import { DATABASE_KINDS, databaseUrlFor } from '../../setup/test-database.fixture';
import { useJobsApp } from './jobs-app.fixture';

// Boots real servers and databases; jest.config.js's per-project testTimeout is not applied by Jest.
jest.setTimeout(30_000);

describe.each(DATABASE_KINDS)('the reconciliation job on %s', (kind) => {
  const { jobs, http, uow, payout, createPayout } = useJobsApp(kind, 'jobs-recon');

  it('reconciliation settles a payout cancelled before sending to CANCELLED (its own final status, evidence §6), never FAILED', async () => {
    const payoutId = await createPayout();
    await jobs.sandbox.control.advancePayout(payoutId, 'PENDING');
    await eventually(
      async () => ((await payout(payoutId)).status === 'PENDING' ? true : undefined),
      5000,
      'PENDING',
    );
    // Cancelled on the resource only: no event reaches the app.
    await jobs.sandbox.control.advancePayout(payoutId, { status: 'CANCELLED', events: 'none' });
    await jobs.sandbox.control.flushWebhooks();
    expect((await payout(payoutId)).status).toBe('PENDING');
    await http().post('/reconciliation/run').expect(200);
    expect(await payout(payoutId)).toMatchObject({ status: 'CANCELLED', lastSource: 'reconciliation' });
    // Final: later passes no longer read it.
    const before = (await jobs.sandbox.control.counters()).requests['GET /v1/payouts/:id'] ?? 0;
    await http().post('/reconciliation/run').expect(200);
    expect((await jobs.sandbox.control.counters()).requests['GET /v1/payouts/:id'] ?? 0).toBe(before);
    // Through the webhook path too: the V2 payout.status_changed CANCELLED is projected as CANCELLED.
    const viaEvent = await createPayout();
    await jobs.sandbox.control.advancePayout(viaEvent, ['PENDING', 'CANCELLED']);
    await eventually(
      async () => ((await payout(viaEvent)).status === 'CANCELLED' ? true : undefined),
      5000,
      'CANCELLED by webhook',
    );
    expect((await payout(viaEvent)).lastSource).toBe('webhook');
  });

  it('reconciliation applies a hold outcome that exists only on the resource, once, straight to the projection', async () => {
    const payoutId = await createPayout();
    await jobs.sandbox.control.advancePayout(payoutId, ['PENDING', { status: 'KYT_PENDING' }]);
    await eventually(
      async () => ((await payout(payoutId)).status === 'KYT_PENDING' ? true : undefined),
      5000,
      'KYT_PENDING',
    );
    await jobs.sandbox.control.advancePayout(payoutId, { status: 'COMPLETED', events: 'none' });
    await jobs.sandbox.control.flushWebhooks();
    const held = await payout(payoutId);
    expect(held.status).toBe('KYT_PENDING'); // no event came

    const first = await http().post('/reconciliation/run').expect(200);
    expect(first.body).toMatchObject({ ran: true, failed: 0 });
    expect(first.body.changed).toBeGreaterThanOrEqual(1);
    expect(await payout(payoutId)).toMatchObject({
      status: 'COMPLETED',
      previousStatus: 'KYT_PENDING',
      lastSource: 'reconciliation',
      version: held.version + 1, // one write
    });
    const second = await http().post('/reconciliation/run').expect(200);
    expect(second.body.changed).toBe(0);
    expect((await payout(payoutId)).version).toBe(held.version + 1);
  });

  it('reconciliation survives a payout whose write throws: counted, backed off, the others applied', async () => {
    const poisoned = await createPayout();
    const healthy = await createPayout();
    for (const id of [poisoned, healthy])
      await jobs.sandbox.control.advancePayout(id, { status: 'PROCESSING', events: 'none' });
    const projection = jobs.running.app.get(PayoutProjection);
    const apply = projection.apply.bind(projection);
    // The write goes through, then throws: it must be rolled back with its savepoint.
    const spy = jest.spyOn(projection, 'apply').mockImplementation(async (obs: PayoutObservation) => {
      const result = await apply(obs);
      if (obs.payoutId === poisoned) throw new Error('write exploded');
      return result;
    });
    try {
      const res = await http().post('/reconciliation/run').expect(200);
      expect(res.body).toMatchObject({ ran: true, failed: 1 });
      expect((await payout(healthy)).status).toBe('PROCESSING');
      const p = await payout(poisoned);
      // The poisoned payout's write is rolled back with its savepoint: still as created.
      expect(p.status).toBe('CREATED');
      expect(p.checkFailures).toBe(1);
      expect(p.nextCheckAt!.getTime()).toBeGreaterThan(Date.now());
    } finally {
      spy.mockRestore();
    }
    // Once due again (and the write healthy), it is checked and its failures cleared.
    await uow().run((m) => m.update(PayoutEntity, { payoutId: poisoned }, { nextCheckAt: new Date(0) }));
    expect((await http().post('/reconciliation/run').expect(200)).body.failed).toBe(0);
    expect(await payout(poisoned)).toMatchObject({ status: 'PROCESSING', checkFailures: 0 });
  });

  it('reconciliation counts a payout it cannot read, backs it off, and still checks the others', async () => {
    const ghost = `ghost-${randomUUID()}`;
    const now = new Date();
    await uow().run((m) =>
      m.insert(PayoutEntity, {
        payoutId: ghost,
        status: 'PROCESSING',
        lastSource: 'webhook',
        createdAt: now,
        updatedAt: now,
        version: 1,
        checkFailures: 0,
      }),
    );
    const real = await createPayout();
    await jobs.sandbox.control.advancePayout(real, { status: 'PROCESSING', events: 'none' });
    const res = await http().post('/reconciliation/run').expect(200);
    expect(res.body.failed).toBe(1);
    expect((await payout(real)).status).toBe('PROCESSING');
    const g = await payout(ghost);
    expect(g.checkFailures).toBe(1);
    expect(g.nextCheckAt!.getTime()).toBeGreaterThan(Date.now());
    // Backed off: the next pass does not ask for it again.
    const seqBefore = (await jobs.sandbox.control.requestLog()).length;
    const again = await http().post('/reconciliation/run').expect(200);
    expect(again.body.failed).toBe(0);
    const asked = (await jobs.sandbox.control.requestLog()).slice(seqBefore).map((r) => r.path);
    expect(asked.some((path) => path.endsWith(ghost))).toBe(false);
  });
});

describe('reconciliation order and batches (SQLite file)', () => {
  it('per payout (RECONCILE_USE_LIST=false): never-checked payouts first, then the oldest-checked, in batches of RECONCILE_BATCH_SIZE', async () => {
    const sandbox = await startTestSandbox();
    const db = await databaseUrlFor('sqlite', 'order');
    const running = await startTestApp(
      db.url,
      { RECONCILE_BATCH_SIZE: '2', RECONCILE_CONCURRENCY: '1', RECONCILE_USE_LIST: 'false' },
      sandbox,
    );
    try {
      const account = await createFundedAccount(running, 'order');
      const ids: string[] = [];
      for (let i = 0; i < 3; i++) {
        const res = await appRequest(running)
          .post('/payouts')
          .set('Idempotency-Key', randomUUID())
          .send({
            virtual_account_id: account.virtualAccountId,
            recipient_id: account.recipientId,
            amount: '1.00',
            currency: 'USD',
          })
          .expect(201);
        ids.push(res.body.payout_id);
      }
      const [recent, old, never] = ids;
      const uow = running.app.get(PartnerUnitOfWork);
      await uow.run((m) =>
        m.update(PayoutEntity, { payoutId: recent }, { lastCheckedAt: new Date(Date.now() - 60_000) }),
      );
      await uow.run((m) =>
        m.update(PayoutEntity, { payoutId: old }, { lastCheckedAt: new Date(Date.now() - 3_600_000) }),
      );
      await uow.run((m) => m.update(PayoutEntity, { payoutId: never }, { lastCheckedAt: null }));
      const seqBefore = (await sandbox.control.requestLog()).length;
      const res = await appRequest(running).post('/reconciliation/run').expect(200);
      expect(res.body).toMatchObject({ ran: true, checked: 3, batches: 2, pages: 0, reads: 3 });
      const reads = (await sandbox.control.requestLog())
        .slice(seqBefore)
        .filter((r) => r.route === 'GET /v1/payouts/:id')
        .map((r) => r.path.split('/').at(-1));
      // The first batch holds the never-checked and the oldest-checked, the second the most recent.
      expect(new Set(reads.slice(0, 2))).toEqual(new Set([never, old]));
      expect(reads[2]).toBe(recent);
    } finally {
      await running.close();
      await sandbox.close();
      db.cleanup();
    }
  });
});
