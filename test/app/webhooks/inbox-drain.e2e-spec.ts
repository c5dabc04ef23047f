/**
 * After a crash at full speed, one pass drains the whole backlog due, not 100 entries per run (a
 * startup pass, then a cron a minute apart), in bounded batches with bounded concurrency, and an
 * entry that fails keeps its backoff.
 */
import type { PartnerSandbox } from '@partner-payments/testing';
import {
  PartnerJobLockEntity,
  PartnerUnitOfWork,
  INBOX_REDELIVERY_JOB,
  PartnerTypeOrmInboxStore,
} from '@partner-payments/typeorm';
import { eventually, startTestApp, startTestSandbox, testInboxKeyRing } from '../../setup/app.fixture';
import { DATABASE_KINDS, databaseUrlFor, openTestDatabaseAt } from '../../setup/test-database.fixture';

jest.setTimeout(180_000);

const BACKLOG = 2000;

describe.each(DATABASE_KINDS)('the startup pass drains a crash backlog (%s)', (kind) => {
  let sandbox: PartnerSandbox;
  beforeAll(async () => {
    sandbox = await startTestSandbox();
  });
  afterAll(async () => sandbox?.close());

  it(`processes ${BACKLOG} stored entries in one pass; a failing entry keeps its backoff`, async () => {
    const { url, cleanup } = await databaseUrlFor(kind, 'drain');
    // What a crash at full speed leaves: entries stored (the 2xx went out), never processed.
    const db = await openTestDatabaseAt(url);
    const receivedAt = new Date(Date.now() - 60_000);
    await db.uow.transaction(async () => {
      const store = new PartnerTypeOrmInboxStore(db.uow, testInboxKeyRing());
      for (let i = 0; i < BACKLOG; i += 1) {
        const eventId = `drain_${String(i).padStart(4, '0')}`;
        await store.record({
          eventId,
          // An event type the app has no projection for: the cost measured is the inbox's own.
          name: 'user.document.download.failed',
          envelope: 'flat',
          rawBody: JSON.stringify({ event: 'user.document.download.failed', data: { event_id: eventId } }),
          receivedAt,
        });
      }
      // Stored by an older version that did not check its bodies: it fails on every attempt.
      await store.record({
        eventId: 'drain_bad',
        name: 'user.updated',
        envelope: 'flat',
        rawBody: '{',
        receivedAt,
      });
    });
    await db.dataSource.destroy();

    const startedAt = Date.now();
    const running = await startTestApp(url, { INBOX_REDELIVERY_BATCH_SIZE: '100' }, sandbox);
    try {
      const store = running.app.get(PartnerTypeOrmInboxStore);
      const counts = await eventually(
        async () => {
          const c = await store.countByState();
          return (c.processed ?? 0) + (c.failed ?? 0) === BACKLOG + 1 ? c : undefined;
        },
        120_000,
        'the backlog processed',
      );
      expect(counts).toEqual({ processed: BACKLOG, failed: 1 });
      const lock = await running.app
        .get(PartnerUnitOfWork)
        .run((m) => m.findOneByOrFail(PartnerJobLockEntity, { name: INBOX_REDELIVERY_JOB }));
      expect(lock.runs).toBe(1); // one startup pass did it all
      // Tried once, then left to its backoff (30 s after it failed, which was after the start):
      // the pass did not spin on it. No wall-clock bound on the pass itself (the machine may be slow).
      const bad = await store.get('drain_bad');
      expect(bad).toMatchObject({
        state: 'failed',
        attempts: 1,
        lastError: expect.stringContaining('unparseable'),
      });
      expect(bad!.nextAttemptAt!.getTime()).toBeGreaterThanOrEqual(startedAt + 30_000);
    } finally {
      await running.close();
      cleanup();
    }
  });
});
