/**
 * Version pinning once (spec 9.3), failed-inbox redelivery with a dead limit, and a crash between
 * the inbox insert and processing, through the jobs' endpoints and restarts, on a SQLite file and on
 * PostgreSQL.
 */
import { randomUUID } from 'node:crypto';
import { EventEmitter2 } from '@nestjs/event-emitter';
import { appRequest, eventually, startTestApp, testInboxKeyRing } from '../../setup/app.fixture';
import { DATABASE_KINDS, databaseUrlFor, openTestDatabaseAt } from '../../setup/test-database.fixture';
import { JOBS_ENV, useJobsApp } from './jobs-app.fixture';
import { PartnerTypeOrmInboxStore, PartnerWebhookInboxEntity } from '@partner-payments/typeorm';

// Boots real servers and databases; jest.config.js's per-project testTimeout is not applied by Jest.
jest.setTimeout(30_000);

describe.each(DATABASE_KINDS)('jobs and restarts on %s', (kind) => {
  const { jobs, http, uow, payout, upgradeCalls, createPayout, inboxEntryOf, failedEntryMadeDue } =
    useJobsApp(kind, 'jobs-restarts');

  it('pins the version once: at start, not again on demand or after a restart', async () => {
    expect(await upgradeCalls()).toBe(1);
    const pin = await http().post('/versioning/pin').expect(200);
    expect(pin.body).toMatchObject({
      configured: '2026-04-14',
      pinned: '2026-04-14',
      action: 'already-pinned',
    });
    // By default every call keeps X-Api-Version once pinned (evidence §1: the same version on every
    // request), so a replica is never served a version a newer replica moved the pin to.
    const lastPayoutCall = async () =>
      (await jobs.sandbox.control.requestLog())
        .filter((r) => r.route === 'POST /v1/virtual-accounts/:id/payout')
        .at(-1);
    await createPayout();
    expect((await lastPayoutCall())?.headers['x-api-version']).toBe('2026-04-14');
    await jobs.running.close();
    jobs.running = await startTestApp(
      jobs.dbUrl,
      { ...JOBS_ENV, PARTNER_SEND_VERSION_HEADER: 'until-pinned' },
      jobs.sandbox,
    );
    expect(await upgradeCalls()).toBe(1);
    expect((await http().get('/health/ready').expect(200)).body.details.partner.apiVersion).toEqual({
      configured: '2026-04-14',
      pinned: '2026-04-14',
    });
    // until-pinned (opt-in): once pinned, calls go out without X-Api-Version (spec 9.3).
    await createPayout();
    expect((await lastPayoutCall())?.headers['x-api-version']).toBeUndefined();
  });

  it('logs a refused pin once and does not retry it', async () => {
    const other = await databaseUrlFor(kind, 'jobs-refused');
    const refusing = await startTestApp(other.url, { PARTNER_API_VERSION: '2025-01-01' }, jobs.sandbox);
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
      await jobs.sandbox.control.setWebhookUrl(`${jobs.running.url}/webhooks/partner`); // deliveries back to the main app
    }
  });

  it('redelivers a failed inbox entry after its backoff, and leaves one that keeps failing dead', async () => {
    const emitter = jobs.running.app.get(EventEmitter2);
    let failuresLeft = 3;
    const flaky = async () => {
      if (failuresLeft-- > 0) throw new Error('handler hiccup');
    };
    emitter.on('virtual_account.deposit_funds_received', flaky);
    try {
      const store = jobs.running.app.get(PartnerTypeOrmInboxStore);
      const entryOf = inboxEntryOf;
      const { depositId } = await jobs.sandbox.control.simulateDeposit(jobs.account.virtualAccountId, {
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
          PartnerWebhookInboxEntity,
          { eventId: entry!.eventId },
          { nextAttemptAt: new Date(Date.now() - 1000) },
        ),
      );
      expect((await http().post('/inbox/redeliver').expect(200)).body).toMatchObject({ failed: 1, dead: 1 });
      expect(await store.get(entry!.eventId)).toMatchObject({ state: 'dead', attempts: 2 });
      expect((await http().get('/inbox').expect(200)).body.dead).toBe(1);

      // A second event whose handler recovers: processed on redelivery.
      const second = await jobs.sandbox.control.simulateDeposit(jobs.account.virtualAccountId, {
        amount: '6.00',
      });
      const failed = await failedEntryMadeDue(second.depositId);
      expect((await http().post('/inbox/redeliver').expect(200)).body).toMatchObject({ processed: 1 });
      expect(await store.get(failed.eventId)).toMatchObject({ state: 'processed', attempts: 2 });
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
    await jobs.sandbox.control.flushWebhooks();
    await jobs.running.close();
    // What the webhook pipeline does before its 2xx: record the exact body. Then the process dies.
    const eventId = randomUUID();
    const body = JSON.stringify({
      event: 'payout.processing',
      data: { event_id: eventId, payout_id: payoutId, status: 'processing' },
    });
    const db = await openTestDatabaseAt(jobs.dbUrl);
    await new PartnerTypeOrmInboxStore(db.uow, testInboxKeyRing()).record({
      eventId,
      name: 'payout.processing',
      envelope: 'flat',
      rawBody: body,
      receivedAt: new Date(),
    });
    await db.dataSource.destroy();

    jobs.running = await startTestApp(jobs.dbUrl, JOBS_ENV, jobs.sandbox);
    expect(await jobs.running.app.get(PartnerTypeOrmInboxStore).get(eventId)).toMatchObject({
      state: 'processed',
    });
    expect(await payout(payoutId)).toMatchObject({ status: 'PROCESSING', lastSource: 'webhook' });
  });
});
