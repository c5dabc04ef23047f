/**
 * The scheduled jobs through their endpoints, and restart behaviour, on a SQLite file and on
 * PostgreSQL: reconciliation of a hold that resolves only on the resource (spec 6.4.8), version
 * pinning once (spec 9.3), failed-inbox redelivery with a dead limit, and a crash between the
 * inbox insert and processing.
 */
import { randomUUID } from 'node:crypto';
import { EventEmitter2 } from '@nestjs/event-emitter';
import {
  PartnerApiVersionState,
  PartnerDerivedEvent,
  type PartnerPayoutStatusEvent,
} from '@partner-payments/nestjs';
import type { PartnerSandbox } from '@partner-payments/testing';
import type { RunningApp } from '../../apps/reference-app/src/app.bootstrap';
import {
  PayoutEntity,
  ReconciliationPassEntity,
  WebhookInboxEntity,
} from '../../apps/reference-app/src/database/entities';
import { UnitOfWork } from '../../apps/reference-app/src/database/unit-of-work.service';
import { advisoryLockKey } from '../../apps/reference-app/src/scheduling/job-lock.service';
import { VERSION_PIN_JOB } from '../../apps/reference-app/src/versioning/version-pin.service';
import { TypeOrmInboxStore } from '../../apps/reference-app/src/webhooks/typeorm-inbox.store';
import { newPgClient } from '../../scripts/pg-client';
import {
  appRequest,
  eventually,
  startTestApp,
  startTestSandbox,
  testInboxKeyRing,
} from '../setup/app.helper';
import { createFundedAccount, type FundedAccount } from '../setup/partner-fixtures.helper';
import { DATABASE_KINDS, databaseUrlFor, openTestDatabaseAt } from '../setup/test-database.helper';

// Boots real servers and databases; jest.config.js's per-project testTimeout is not applied by Jest.
jest.setTimeout(30_000);

describe.each(DATABASE_KINDS)('jobs and restarts on %s', (kind) => {
  let sandbox: PartnerSandbox;
  let running: RunningApp;
  let dbUrl: string;
  let cleanup: () => void;
  let account: FundedAccount;

  beforeAll(async () => {
    sandbox = await startTestSandbox();
    const db = await databaseUrlFor(kind, 'jobs');
    dbUrl = db.url;
    cleanup = db.cleanup;
    running = await startTestApp(dbUrl, { INBOX_MAX_ATTEMPTS: '2' }, sandbox);
    account = await createFundedAccount(running, `jobs-${kind}`);
  });
  afterAll(async () => {
    await running?.close();
    await sandbox?.close();
    cleanup?.();
  });

  const http = () => appRequest(running);
  const uow = () => running.app.get(UnitOfWork);
  const payout = (payoutId: string) =>
    uow().run((m) => m.findOneOrFail(PayoutEntity, { where: { payoutId } }));
  const upgradeCalls = async () =>
    (await sandbox.control.counters()).requests['POST /v1/versioning/upgrade'] ?? 0;
  const createPayout = async () =>
    (
      await http()
        .post('/payouts')
        .set('Idempotency-Key', randomUUID())
        .send({
          virtual_account_id: account.virtualAccountId,
          recipient_id: account.recipientId,
          amount: '42.00',
          currency: 'USD',
        })
        .expect(201)
    ).body.payout_id as string;

  it('reconciliation settles a payout cancelled before sending to CANCELLED (its own final status, evidence §6), never FAILED', async () => {
    const payoutId = await createPayout();
    await sandbox.control.advancePayout(payoutId, 'PENDING');
    await eventually(
      async () => ((await payout(payoutId)).status === 'PENDING' ? true : undefined),
      5000,
      'PENDING',
    );
    // Cancelled on the resource only: no event reaches the app.
    await sandbox.control.advancePayout(payoutId, { status: 'CANCELLED', events: 'none' });
    await sandbox.control.flushWebhooks();
    expect((await payout(payoutId)).status).toBe('PENDING');
    await http().post('/reconciliation/run').expect(200);
    expect(await payout(payoutId)).toMatchObject({ status: 'CANCELLED', lastSource: 'reconciliation' });
    // Final: later passes no longer read it.
    const before = (await sandbox.control.counters()).requests['GET /v1/payouts/:id'] ?? 0;
    await http().post('/reconciliation/run').expect(200);
    expect((await sandbox.control.counters()).requests['GET /v1/payouts/:id'] ?? 0).toBe(before);
    // Through the webhook path too: the V2 payout.status_changed CANCELLED is projected as CANCELLED.
    const viaEvent = await createPayout();
    await sandbox.control.advancePayout(viaEvent, ['PENDING', 'CANCELLED']);
    await eventually(
      async () => ((await payout(viaEvent)).status === 'CANCELLED' ? true : undefined),
      5000,
      'CANCELLED by webhook',
    );
    expect((await payout(viaEvent)).lastSource).toBe('webhook');
  });

  it('reconciliation applies a hold outcome that exists only on the resource, through the unified status event', async () => {
    const payoutId = await createPayout();
    await sandbox.control.advancePayout(payoutId, ['PENDING', { status: 'KYT_PENDING' }]);
    await eventually(
      async () => ((await payout(payoutId)).status === 'KYT_PENDING' ? true : undefined),
      5000,
      'KYT_PENDING',
    );
    await sandbox.control.advancePayout(payoutId, { status: 'COMPLETED', events: 'none' });
    await sandbox.control.flushWebhooks();
    expect((await payout(payoutId)).status).toBe('KYT_PENDING'); // no event came

    const seen: PartnerPayoutStatusEvent[] = [];
    const listener = (e: PartnerPayoutStatusEvent) => void seen.push(e);
    running.app.get(EventEmitter2).on(PartnerDerivedEvent.PayoutStatus, listener);
    try {
      const first = await http().post('/reconciliation/run').expect(200);
      expect(first.body).toMatchObject({ ran: true, failed: 0 });
      expect(first.body.changed).toBeGreaterThanOrEqual(1);
      expect(await payout(payoutId)).toMatchObject({
        status: 'COMPLETED',
        previousStatus: 'KYT_PENDING',
        lastSource: 'reconciliation',
      });
      expect(seen.filter((e) => e.payoutId === payoutId)).toEqual([
        expect.objectContaining({
          status: 'COMPLETED',
          source: 'reconciliation',
          previousStatus: 'KYT_PENDING',
        }),
      ]);
      const second = await http().post('/reconciliation/run').expect(200);
      expect(second.body.changed).toBe(0);
    } finally {
      running.app.get(EventEmitter2).off(PartnerDerivedEvent.PayoutStatus, listener);
    }
  });

  it('reconciliation survives a handler that throws on one payout: counted, backed off, the others applied', async () => {
    const poisoned = await createPayout();
    const healthy = await createPayout();
    for (const id of [poisoned, healthy])
      await sandbox.control.advancePayout(id, { status: 'PROCESSING', events: 'none' });
    const emitter = running.app.get(EventEmitter2);
    const listener = async (e: PartnerPayoutStatusEvent): Promise<void> => {
      if (e.payoutId === poisoned) throw new Error('handler exploded');
    };
    emitter.on(PartnerDerivedEvent.PayoutStatus, listener);
    try {
      const res = await http().post('/reconciliation/run').expect(200);
      expect(res.body).toMatchObject({ ran: true, failed: 1 });
      expect((await payout(healthy)).status).toBe('PROCESSING');
      const p = await payout(poisoned);
      // The dispatcher waits for every handler before rolling back, so the projection's write for
      // the poisoned payout is rolled back with the rest of its unit of work: still as created.
      expect(p.status).toBe('CREATED');
      expect(p.checkFailures).toBe(1);
      expect(p.nextCheckAt!.getTime()).toBeGreaterThan(Date.now());
    } finally {
      emitter.off(PartnerDerivedEvent.PayoutStatus, listener);
    }
    // Once due again (and the handler healthy), it is checked and its failures cleared.
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
    await sandbox.control.advancePayout(real, { status: 'PROCESSING', events: 'none' });
    const res = await http().post('/reconciliation/run').expect(200);
    expect(res.body.failed).toBe(1);
    expect((await payout(real)).status).toBe('PROCESSING');
    const g = await payout(ghost);
    expect(g.checkFailures).toBe(1);
    expect(g.nextCheckAt!.getTime()).toBeGreaterThan(Date.now());
    // Backed off: the next pass does not ask for it again.
    const seqBefore = (await sandbox.control.requestLog()).length;
    const again = await http().post('/reconciliation/run').expect(200);
    expect(again.body.failed).toBe(0);
    const asked = (await sandbox.control.requestLog()).slice(seqBefore).map((r) => r.path);
    expect(asked.some((path) => path.endsWith(ghost))).toBe(false);
  });

  it('pins the version once: at start, not again on demand or after a restart', async () => {
    expect(await upgradeCalls()).toBe(1);
    const pin = await http().post('/versioning/pin').expect(200);
    expect(pin.body).toMatchObject({
      configured: '2026-04-14',
      pinned: '2026-04-14',
      action: 'already-pinned',
    });
    await running.close();
    running = await startTestApp(dbUrl, { INBOX_MAX_ATTEMPTS: '2' }, sandbox);
    expect(await upgradeCalls()).toBe(1);
    expect((await http().get('/health/ready').expect(200)).body.details.partner.apiVersion).toEqual({
      configured: '2026-04-14',
      pinned: '2026-04-14',
    });
    // until-pinned: once pinned, calls go out without X-Api-Version (spec 9.3).
    await createPayout();
    const last = (await sandbox.control.requestLog())
      .filter((r) => r.route === 'POST /v1/virtual-accounts/:id/payout')
      .at(-1);
    expect(last?.headers['x-api-version']).toBeUndefined();
  });

  it('logs a refused pin once and does not retry it', async () => {
    const other = await databaseUrlFor(kind, 'jobs-refused');
    const refusing = await startTestApp(other.url, { PARTNER_API_VERSION: '2025-01-01' }, sandbox);
    try {
      const calls = await upgradeCalls();
      const pin = await appRequest(refusing).post('/versioning/pin').expect(200);
      expect(pin.body).toMatchObject({
        configured: '2025-01-01',
        lastOutcome: 'refused',
        refusedTarget: '2025-01-01',
        action: 'skipped-refused',
      });
      expect(await upgradeCalls()).toBe(calls);
    } finally {
      await refusing.close();
      other.cleanup();
      await sandbox.control.setWebhookUrl(`${running.url}/webhooks/partner`); // deliveries back to the main app
    }
  });

  it('redelivers a failed inbox entry after its backoff, and leaves one that keeps failing dead', async () => {
    const emitter = running.app.get(EventEmitter2);
    let failuresLeft = 3;
    const flaky = async () => {
      if (failuresLeft-- > 0) throw new Error('handler hiccup');
    };
    emitter.on('virtual_account.deposit_funds_received', flaky);
    try {
      const store = running.app.get(TypeOrmInboxStore);
      // Bodies are sealed at rest (issue 9 defect 3): the store opens them. Ordinary ids are stored as themselves.
      const entryOf = async (depositId: string) => {
        for (const row of await uow().run((m) => m.find(WebhookInboxEntity))) {
          const entry = await store.get(row.eventId);
          if (entry?.rawBody.includes(depositId)) return entry;
        }
        return undefined;
      };
      const { depositId } = await sandbox.control.simulateDeposit(account.virtualAccountId, {
        amount: '5.00',
      });
      const entry = await eventually(
        async () => ((await entryOf(depositId))?.state === 'failed' ? entryOf(depositId) : undefined),
        5000,
        'failed entry',
      );
      expect(entry).toMatchObject({ attempts: 1, lastError: 'handler hiccup' });
      // Not due yet: a run now leaves it alone.
      expect((await http().post('/inbox/redeliver').expect(200)).body).toMatchObject({
        processed: 0,
        failed: 0,
      });
      // Time passes (the backoff is 30 s): make it due, run the job: fails again -> dead at the limit of 2.
      await uow().run((m) =>
        m.update(
          WebhookInboxEntity,
          { eventId: entry!.eventId },
          { nextAttemptAt: new Date(Date.now() - 1000) },
        ),
      );
      expect((await http().post('/inbox/redeliver').expect(200)).body).toMatchObject({ failed: 1, dead: 1 });
      expect(await store.get(entry!.eventId)).toMatchObject({ state: 'dead', attempts: 2 });
      expect((await http().get('/inbox').expect(200)).body.dead).toBe(1);

      // A second event whose handler recovers: processed on redelivery.
      const second = await sandbox.control.simulateDeposit(account.virtualAccountId, { amount: '6.00' });
      const failed = await eventually(
        async () =>
          (await entryOf(second.depositId))?.state === 'failed' ? entryOf(second.depositId) : undefined,
        5000,
        'second failed',
      );
      await uow().run((m) =>
        m.update(
          WebhookInboxEntity,
          { eventId: failed!.eventId },
          { nextAttemptAt: new Date(Date.now() - 1000) },
        ),
      );
      expect((await http().post('/inbox/redeliver').expect(200)).body).toMatchObject({ processed: 1 });
      expect(await store.get(failed!.eventId)).toMatchObject({ state: 'processed', attempts: 2 });
    } finally {
      emitter.off('virtual_account.deposit_funds_received', flaky);
    }
  });

  it('processes after a restart an event that was stored but never processed (crash in between)', async () => {
    const payoutId = await createPayout();
    await eventually(
      async () => ((await payout(payoutId)).status === 'CREATED' ? true : undefined),
      5000,
      'payout row',
    );
    await sandbox.control.flushWebhooks();
    await running.close();
    // What the webhook pipeline does before its 2xx: record the exact body. Then the process dies.
    const eventId = randomUUID();
    const body = JSON.stringify({
      event: 'payout.processing',
      data: { event_id: eventId, payout_id: payoutId, status: 'processing' },
    });
    const db = await openTestDatabaseAt(dbUrl);
    await new TypeOrmInboxStore(db.uow, testInboxKeyRing()).record({
      eventId,
      name: 'payout.processing',
      envelope: 'flat',
      rawBody: body,
      receivedAt: new Date(),
    });
    await db.dataSource.destroy();

    running = await startTestApp(dbUrl, { INBOX_MAX_ATTEMPTS: '2' }, sandbox);
    expect(await running.app.get(TypeOrmInboxStore).get(eventId)).toMatchObject({ state: 'processed' });
    expect(await payout(payoutId)).toMatchObject({ status: 'PROCESSING', lastSource: 'webhook' });
  });
});

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
      await pg.query('SELECT pg_advisory_lock($1::bigint)', [advisoryLockKey(VERSION_PIN_JOB)]);
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
      // Both replicas join the pass of a tick (issue 14); the pass row names the tick it serves.
      const passes = new Map<string, number>();
      const t0 = Date.now();
      while (Date.now() - t0 < 3000) {
        const row = await a.app
          .get(UnitOfWork)
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
      const uow = running.app.get(UnitOfWork);
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
