/**
 * PartnerUnitOfWork's commit durability: a 'relaxed' transaction commits without an fsync of
 * its own (SQLite synchronous=NORMAL around it, PostgreSQL SET LOCAL synchronous_commit = off),
 * and only that transaction: every other one, before and after, still commits 'full'. The inbox
 * processes entries in relaxed transactions and records deliveries in full ones.
 */
import type { EntityManager } from 'typeorm';
import {
  PartnerJobLockEntity,
  PartnerInboxKeyRing,
  PartnerTypeOrmInboxStore,
} from '@partner-payments/typeorm';
import { DATABASE_KINDS, openTestDatabase, type TestDatabase } from '../../setup/test-database.fixture';

/** The level a commit made now would use: SQLite 2 = FULL, 1 = NORMAL; PostgreSQL 'on' / 'off'. */
async function commitLevel(db: TestDatabase, m: EntityManager): Promise<string> {
  if (db.kind === 'postgres') {
    const rows: Array<{ synchronous_commit: string }> = await m.query('SHOW synchronous_commit');
    return rows[0].synchronous_commit;
  }
  const rows: Array<{ synchronous: number }> = await m.query('PRAGMA synchronous');
  return String(rows[0].synchronous);
}

const FULL = { sqlite: '2', postgres: 'on' };
const RELAXED = { sqlite: '1', postgres: 'off' };

/** A job_locks row: any table would do; the other columns take their defaults. */
const lock = (name: string): Partial<PartnerJobLockEntity> => ({ name });

describe.each(DATABASE_KINDS)('PartnerUnitOfWork commit durability on %s', (kind) => {
  let db: TestDatabase;

  beforeAll(async () => {
    db = await openTestDatabase(kind, 'durability');
  });
  afterAll(async () => {
    await db?.close();
  });

  it('commits full by default, relaxed only inside a relaxed transaction, and full again after it', async () => {
    expect(await db.uow.transaction((m) => commitLevel(db, m))).toBe(FULL[kind]);
    const inside = await db.uow.transaction(
      async (m) => {
        await m.insert(PartnerJobLockEntity, lock('relaxed-write'));
        return commitLevel(db, m);
      },
      { durability: 'relaxed' },
    );
    expect(inside).toBe(RELAXED[kind]);
    // PostgreSQL: several transactions, so the pooled connection the relaxed one used is among them.
    for (let i = 0; i < 12; i++) {
      expect(await db.uow.transaction((m) => commitLevel(db, m))).toBe(FULL[kind]);
    }
    expect(await db.uow.run((m) => commitLevel(db, m))).toBe(FULL[kind]);
    // Committed: another connection (another replica) sees the write.
    const other = await db.openAnother();
    expect(
      await other.dataSource.getRepository(PartnerJobLockEntity).countBy({ name: 'relaxed-write' }),
    ).toBe(1);
  });

  it('restores full commits after a relaxed transaction that rolled back, and keeps none of its writes', async () => {
    await expect(
      db.uow.transaction(
        async (m) => {
          await m.insert(PartnerJobLockEntity, lock('rolled-back'));
          throw new Error('handler failed');
        },
        { durability: 'relaxed' },
      ),
    ).rejects.toThrow('handler failed');
    expect(await db.uow.transaction((m) => commitLevel(db, m))).toBe(FULL[kind]);
    expect(await db.dataSource.getRepository(PartnerJobLockEntity).countBy({ name: 'rolled-back' })).toBe(0);
  });

  it('a relaxed transaction opened inside a full one joins it: the outer commit, full, counts', async () => {
    const level = await db.uow.transaction(() =>
      db.uow.transaction((inner) => commitLevel(db, inner), { durability: 'relaxed' }),
    );
    expect(level).toBe(FULL[kind]);
  });

  const keys = () => new PartnerInboxKeyRing([{ id: 'k1', key: Buffer.alloc(32, 7) }]);
  const delivery = (eventId: string) => ({
    eventId,
    name: 'user.created',
    envelope: 'flat' as const,
    rawBody: JSON.stringify({ event: 'user.created', data: { event_id: eventId } }),
    receivedAt: new Date(Date.now() - 60_000),
  });
  /** The level the handlers' writes would commit with: read inside the processing transaction. */
  const levelSeenByHandlers = () => db.uow.run((m) => commitLevel(db, m));

  it('the inbox processes fresh entries relaxed on SQLite only, and full on PostgreSQL', async () => {
    const store = new PartnerTypeOrmInboxStore(db.uow, keys());
    const eventId = `evt_fresh_${kind}`;
    expect(await store.recordBatch([delivery(eventId)])).toEqual(['new']);
    const outcomes = await store.processBatch([eventId], levelSeenByHandlers);
    const expected = kind === 'sqlite' ? RELAXED[kind] : FULL[kind];
    expect(outcomes).toEqual([{ eventId, outcome: 'processed', value: expected }]);
    expect(await db.uow.run((m) => commitLevel(db, m))).toBe(FULL[kind]);
  });

  it('drained entries (claimDue) are processed with the same durability', async () => {
    const store = new PartnerTypeOrmInboxStore(db.uow, keys());
    const eventId = `evt_drained_${kind}`;
    await store.recordBatch([delivery(eventId)]);
    const outcomes = await store.claimDue({ limit: 100, minAgeMs: 0 }, levelSeenByHandlers);
    const mine = outcomes.find((o) => o.eventId === eventId);
    expect(mine).toEqual({ eventId, outcome: 'processed', value: kind === 'sqlite' ? '1' : 'on' });
  });

  it('processingDurability full: an fsync per processing commit; relaxed is refused on PostgreSQL', async () => {
    const full = new PartnerTypeOrmInboxStore(db.uow, keys(), { processingDurability: 'full' });
    const eventId = `evt_full_${kind}`;
    await full.recordBatch([delivery(eventId)]);
    expect(await full.processBatch([eventId], levelSeenByHandlers)).toEqual([
      { eventId, outcome: 'processed', value: FULL[kind] },
    ]);
    if (kind === 'postgres') {
      expect(() => new PartnerTypeOrmInboxStore(db.uow, keys(), { processingDurability: 'relaxed' })).toThrow(
        'SQLite only',
      );
    }
  });
});

describe('SQLite: a delivery recorded while a relaxed processing transaction is open', () => {
  let db: TestDatabase;

  beforeAll(async () => {
    db = await openTestDatabase('sqlite', 'durability-concurrent');
  });
  afterAll(async () => {
    await db?.close();
  });

  it('still commits with synchronous=FULL (it waits for the processing to end), and FULL stays after a failed one', async () => {
    // The insert is a better-sqlite3 transaction function on the shared connection: note the level
    // it commits with, each time it runs.
    const raw = (db.dataSource.driver as unknown as { databaseConnection: RawSqlite }).databaseConnection;
    const levels: unknown[] = [];
    const original = raw.transaction.bind(raw);
    raw.transaction = (fn) => {
      const inserts = original(fn);
      return (...args: unknown[]) => {
        levels.push(raw.pragma('synchronous', { simple: true }));
        return inserts(...args);
      };
    };
    const store = new PartnerTypeOrmInboxStore(
      db.uow,
      new PartnerInboxKeyRing([{ id: 'k1', key: Buffer.alloc(32, 7) }]),
    );
    const row = (eventId: string) => ({
      eventId,
      name: 'user.created',
      envelope: 'flat' as const,
      rawBody: '{}',
      receivedAt: new Date(),
    });
    await store.recordBatch([row('a'), row('b')]);
    let handlerLevel: unknown;
    const processing = store.processBatch(['a', 'b'], async () => {
      handlerLevel = raw.pragma('synchronous', { simple: true });
      await new Promise((resolve) => setTimeout(resolve, 20)); // the event loop turns meanwhile
      return 1;
    });
    const recording = store.recordBatch([row('c')]);
    expect(await recording).toEqual(['new']);
    await processing;
    expect(handlerLevel).toBe(1);
    // A relaxed transaction that fails at its commit: FULL is back after it.
    await expect(
      db.uow.transaction(
        async (m) => {
          await m.query('INSERT INTO job_locks (name) VALUES (?)', ['x']);
          throw new Error('handler failed');
        },
        { durability: 'relaxed' },
      ),
    ).rejects.toThrow('handler failed');
    await store.recordBatch([row('d')]);
    expect(levels).toEqual([2, 2, 2]);
  });
});

/** The part of better-sqlite3's Database the spec wraps. */
interface RawSqlite {
  pragma(source: string, options?: { simple: boolean }): unknown;
  transaction(fn: (...args: unknown[]) => unknown): (...args: unknown[]) => unknown;
}
