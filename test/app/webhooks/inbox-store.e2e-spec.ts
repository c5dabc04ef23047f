import { Logger } from '@nestjs/common';
import type { InboxEventInput } from '@partner-payments/nestjs/inbox';
import { PayoutEntity } from '../../../apps/reference-app/src/app-entities.constants';
import {
  inboxEventKey,
  PartnerTypeOrmInboxStore,
  PartnerWebhookInboxEntity,
} from '@partner-payments/typeorm';
import { placeholders } from '@partner-payments/typeorm/sql';
import { testInboxKeyRing } from '../../setup/app.fixture';
import { DATABASE_KINDS, openTestDatabase, type TestDatabase } from '../../setup/test-database.fixture';

// Boots real servers and databases; jest.config.js's per-project testTimeout is not applied by Jest.
jest.setTimeout(30_000);

const t0 = new Date('2026-11-22T07:00:00.000Z');
const event = (eventId: string, receivedAt = t0): InboxEventInput => ({
  eventId,
  name: 'payout.completed',
  envelope: 'flat',
  rawBody: JSON.stringify({ event: 'payout.completed', data: { event_id: eventId } }),
  receivedAt,
});

describe.each(DATABASE_KINDS)('PartnerTypeOrmInboxStore on %s', (kind) => {
  let db: TestDatabase;
  let clock: Date;
  let store: PartnerTypeOrmInboxStore;

  beforeAll(async () => {
    db = await openTestDatabase(kind, 'inbox');
  });
  afterAll(async () => db?.close());
  beforeEach(async () => {
    await db.dataSource.getRepository(PartnerWebhookInboxEntity).clear();
    await db.dataSource.getRepository(PayoutEntity).clear();
    clock = t0;
    store = new PartnerTypeOrmInboxStore(db.uow, testInboxKeyRing(), {
      retry: { maxAttempts: 3, baseDelayMs: 1000, maxDelayMs: 60_000 },
      clock: () => clock,
    });
  });

  it('records an event once and reports the second delivery as a duplicate, keeping the raw body', async () => {
    expect(await store.record(event('e1'))).toBe('new');
    expect(await store.record({ ...event('e1'), rawBody: 'other' })).toBe('duplicate');
    const entry = await store.get('e1');
    expect(entry).toMatchObject({ eventId: 'e1', state: 'pending', attempts: 0, name: 'payout.completed' });
    expect(entry?.rawBody).toContain('"event_id":"e1"');
    expect(entry?.receivedAt.toISOString()).toBe(t0.toISOString());
  });

  it('lets exactly one of 25 racing deliveries (from two connections) store the event', async () => {
    const other = await db.openAnother();
    const otherStore = new PartnerTypeOrmInboxStore(other.uow, testInboxKeyRing());
    const results = await Promise.all(
      Array.from({ length: 25 }, (_, i) => (i % 2 ? otherStore : store).record(event('race'))),
    );
    expect(results.filter((r) => r === 'new')).toHaveLength(1);
    expect(await db.dataSource.getRepository(PartnerWebhookInboxEntity).countBy({ eventId: 'race' })).toBe(1);
  });

  it('commits handler writes and the processed mark together', async () => {
    await store.record(event('e2'));
    const outcome = await store.process('e2', async () => {
      const m = db.uow.currentTransaction();
      expect(m).toBeDefined();
      await m!.insert(PayoutEntity, payoutRow('p-commit'));
      return 'written';
    });
    expect(outcome).toEqual({ outcome: 'processed', value: 'written' });
    expect(await db.dataSource.getRepository(PayoutEntity).countBy({ payoutId: 'p-commit' })).toBe(1);
    expect(await store.get('e2')).toMatchObject({ state: 'processed', attempts: 1 });
    expect(await store.pending({ now: clock })).toEqual([]);
  });

  it('skips, without running handle, an id it never recorded (PartnerInboxStore.process), alone or in a unit of work', async () => {
    let runs = 0;
    const handle = async () => void (runs += 1);
    await expect(store.process('never-recorded', handle)).resolves.toEqual({ outcome: 'skipped' });
    await expect(db.uow.transaction(() => store.process('never-recorded', handle))).resolves.toEqual({
      outcome: 'skipped',
    });
    expect(runs).toBe(0);
    expect(await store.get('never-recorded')).toBeNull();
  });

  it('does not run the handlers again for an entry processed meanwhile (a racing redelivery, another replica)', async () => {
    await store.record(event('e-race'));
    // PostgreSQL: another replica's connection. SQLite serves one replica (its locks are local):
    // the racing redelivery comes from the same process, through the same unit of work.
    const otherStore =
      kind === 'postgres'
        ? new PartnerTypeOrmInboxStore((await db.openAnother()).uow, testInboxKeyRing())
        : store;
    let runs = 0;
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    // The original delivery holds the entry while its handlers run...
    const first = store.process('e-race', async () => {
      runs += 1;
      await gate;
      return 'first';
    });
    // The original holds the entry once its handlers run (a fixed pause could lose that race under load).
    while (runs === 0) await new Promise((r) => setTimeout(r, 10));
    // ...a redelivery from another replica picked it from a snapshot taken before the mark.
    const second = otherStore.process('e-race', async () => {
      runs += 1;
      return 'second';
    });
    await new Promise((r) => setTimeout(r, 50));
    release();
    await expect(first).resolves.toEqual({ outcome: 'processed', value: 'first' });
    await expect(second).resolves.toEqual({ outcome: 'skipped' });
    expect(runs).toBe(1);
    expect(await store.get('e-race')).toMatchObject({ state: 'processed', attempts: 1 });
  });

  it('keeps nothing of a failed unit of work: no handler write, the failure recorded with its backoff', async () => {
    await store.record(event('e3'));
    const outcome = await store.process('e3', async () => {
      await db.uow.run((m) => m.insert(PayoutEntity, payoutRow('p-rollback')));
      throw new Error('handler exploded after writing');
    });
    expect(outcome).toEqual({
      outcome: 'failed',
      error: 'handler exploded after writing',
      retryAt: new Date(clock.getTime() + 1000),
    });
    expect(await db.dataSource.getRepository(PayoutEntity).countBy({ payoutId: 'p-rollback' })).toBe(0);
    expect(await store.get('e3')).toMatchObject({ state: 'failed', attempts: 1 });
  });

  it('answers retryAt undefined, not null (dead), when the failure cannot be recorded; the entry stays due', async () => {
    await store.record(event('e-unmarked'));
    const quiet = jest.spyOn(Logger.prototype, 'error').mockImplementation(() => undefined);
    store.markFailed = () => Promise.reject(new Error('database down'));
    try {
      const outcome = await store.process('e-unmarked', () => Promise.reject(new Error('handler down')));
      expect(outcome).toMatchObject({ outcome: 'failed', error: 'handler down' });
      expect(outcome).toHaveProperty('retryAt', undefined);
      expect(quiet).toHaveBeenCalledWith(expect.stringContaining('database down'));
    } finally {
      quiet.mockRestore();
    }
    expect(await store.get('e-unmarked')).toMatchObject({ state: 'pending', attempts: 0 });
    expect((await store.pending({ now: clock })).map((e) => e.eventId)).toEqual(['e-unmarked']);
  });

  it('backs off failed entries, then leaves them dead at the limit', async () => {
    await store.record(event('e4'));
    await store.markFailed('e4', 'boom 1');
    expect(await store.get('e4')).toMatchObject({ state: 'failed', attempts: 1, lastError: 'boom 1' });
    expect((await store.pending({ now: clock })).map((e) => e.eventId)).toEqual([]);
    clock = new Date(t0.getTime() + 1000);
    expect((await store.pending({ now: clock })).map((e) => e.eventId)).toEqual(['e4']);
    await store.markFailed('e4', 'boom 2');
    expect((await store.get('e4'))?.nextAttemptAt?.toISOString()).toBe(
      new Date(clock.getTime() + 2000).toISOString(),
    );
    await store.markFailed('e4', 'boom 3');
    expect(await store.get('e4')).toMatchObject({
      state: 'dead',
      attempts: 3,
      nextAttemptAt: null,
      lastError: 'boom 3',
    });
    expect(await store.pending({ now: new Date(t0.getTime() + 86_400_000) })).toEqual([]);
    expect(await store.countByState()).toEqual({ dead: 1 });
  });

  it('leaves a processed entry processed when a late failure of an earlier attempt is recorded', async () => {
    // A fresh batch failed and rolled back; before its markFailed ran, a drain processed the entry.
    await store.record(event('e9'));
    const ran: string[] = [];
    const drained = await store.claimDue({ now: clock }, async (entry) => {
      ran.push(entry.eventId);
    });
    expect(drained).toEqual([{ eventId: 'e9', outcome: 'processed', value: undefined }]);
    await store.markFailed('e9', 'the earlier attempt failed');
    expect(await store.get('e9')).toMatchObject({ state: 'processed', attempts: 1, lastError: null });
    // Nothing is due again: the handlers ran once.
    expect(await store.pending({ now: new Date(t0.getTime() + 86_400_000) })).toEqual([]);
    expect(ran).toEqual(['e9']);
  });

  if (kind === 'postgres')
    it('waits for a drain still holding the entry, then leaves it processed (the row is read FOR UPDATE)', async () => {
      await store.record(event('e10'));
      // Another replica's drain holds the row and marks it processed, not yet committed.
      const other = await db.openAnother();
      const drain = other.dataSource.createQueryRunner();
      await drain.connect();
      try {
        await drain.startTransaction();
        const key = inboxEventKey('e10');
        await drain.query('SELECT state FROM webhook_inbox WHERE event_key = $1 FOR UPDATE', [key]);
        await drain.query("UPDATE webhook_inbox SET state = 'processed', attempts = 1 WHERE event_key = $1", [
          key,
        ]);
        // The late failure of an earlier attempt: without the lock it would read `pending` now and
        // overwrite the drain's `processed` once it commits.
        const late = store.markFailed('e10', 'the earlier attempt failed');
        await new Promise((r) => setTimeout(r, 300));
        await drain.commitTransaction();
        await late;
      } finally {
        await drain.release();
        await other.dataSource.destroy();
      }
      expect(await store.get('e10')).toMatchObject({ state: 'processed', attempts: 1 });
    });

  it('lists pending entries oldest first and skips ones younger than minAgeMs', async () => {
    await store.record(event('late', new Date(t0.getTime() + 5000)));
    await store.record(event('early', t0));
    const now = new Date(t0.getTime() + 6000);
    expect((await store.pending({ now })).map((e) => e.eventId)).toEqual(['early', 'late']);
    expect((await store.pending({ now, minAgeMs: 3000 })).map((e) => e.eventId)).toEqual(['early']);
    expect((await store.pending({ now, limit: 1 })).map((e) => e.eventId)).toEqual(['early']);
  });

  // Limits PostgreSQL enforces (varchar lengths, no U+0000) must not refuse an authentic event, and
  // ids that differ only in lone surrogates must not merge (UTF-8 storage makes them U+FFFD).
  it('stores any id and name whole: 10,000 characters, U+0000, lone surrogates, a 300-character name', async () => {
    const ids = [
      'x'.repeat(10_000),
      'evt\u0000nul',
      'evt_\ud800',
      'evt_\udc00',
      'evt_\ufffd',
      'evt_"quoted" \\ back\nslash',
    ];
    const name = `odd.${'n'.repeat(300)}\u0000\ud800`;
    for (const id of ids) {
      expect(await store.record({ ...event(id), name })).toBe('new');
    }
    for (const id of ids) expect(await store.record(event(id))).toBe('duplicate');
    expect(await db.dataSource.getRepository(PartnerWebhookInboxEntity).count()).toBe(ids.length);
    for (const id of ids) {
      const entry = await store.get(id);
      expect(entry?.eventId === id && entry.name === name).toBe(true);
    }
    const listed = (await store.pending({ now: clock })).map((e) => e.eventId);
    expect([...listed].sort()).toEqual([...ids].sort());
    await store.markFailed('evt\u0000nul', 'handler said \u0000 and \ud800');
    expect(await store.get('evt\u0000nul')).toMatchObject({ state: 'failed', attempts: 1 });
    await store.process('evt_\ud800', async () => undefined);
    expect((await store.get('evt_\ud800'))?.state).toBe('processed');
    expect((await store.get('evt_\udc00'))?.state).toBe('pending');
    // An ordinary id reads as itself in the table (operators query it).
    await store.record(event('evt_plain'));
    expect(
      await db.dataSource.getRepository(PartnerWebhookInboxEntity).countBy({ eventId: 'evt_plain' }),
    ).toBe(1);
  });

  // The body carries whole account numbers: never in plain text at rest.
  it('seals the body at rest (no column holds it) and gives back the exact bytes', async () => {
    const body = JSON.stringify({
      event: 'virtual_account.created',
      data: { event_id: 'e-sealed', account_number: '987654321012' },
    });
    await store.record({ ...event('e-sealed'), rawBody: `\ufeff${body}` });
    const rows: Array<Record<string, unknown>> = await db.dataSource.query('SELECT * FROM webhook_inbox');
    expect(JSON.stringify(rows)).not.toContain('987654321012');
    expect(rows[0]).toMatchObject({ body_key: 'test1', raw_body: null });
    expect(String(rows[0].sealed_body)).toMatch(/^v1\.test1\./);
    expect((await store.get('e-sealed'))?.rawBody).toBe(`\ufeff${body}`);
  });

  it('marks failed, and does not return, an entry whose sealed body was altered; the others still come', async () => {
    await store.record(event('e-intact'));
    await store.record(event('e-altered', new Date(t0.getTime() - 1000)));
    const [p1] = placeholders(db.kind, 1);
    await db.dataSource.query(
      `UPDATE webhook_inbox SET sealed_body = sealed_body || 'AA' WHERE event_id = ${p1}`,
      ['e-altered'],
    );
    expect((await store.pending({ now: clock })).map((e) => e.eventId)).toEqual(['e-intact']);
    expect(await store.get('e-intact')).toMatchObject({ state: 'pending' });
    const altered: Array<{ state: string; attempts: number; last_error: string }> = await db.dataSource.query(
      `SELECT state, attempts, last_error FROM webhook_inbox WHERE event_id = ${p1}`,
      ['e-altered'],
    );
    expect(altered[0]).toMatchObject({ state: 'failed', attempts: 1 });
    expect(altered[0].last_error).toMatch(/^stored body cannot be opened/);
  });
});

function payoutRow(payoutId: string): Partial<PayoutEntity> {
  return {
    payoutId,
    status: 'PENDING',
    lastSource: 'webhook',
    createdAt: t0,
    updatedAt: t0,
    version: 1,
    checkFailures: 0,
  };
}
