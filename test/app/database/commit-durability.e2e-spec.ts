/**
 * UnitOfWork's commit durability (issue 14): a 'relaxed' transaction commits without an fsync of
 * its own (SQLite synchronous=NORMAL around it, PostgreSQL SET LOCAL synchronous_commit = off),
 * and only that transaction: every other one, before and after, still commits 'full'. The inbox
 * processes entries in relaxed transactions and records deliveries in full ones.
 */
import type { EntityManager } from 'typeorm';
import { JobLockEntity } from '../../../apps/reference-app/src/app-entities.constants';
import { InboxKeyRing } from '../../../apps/reference-app/src/webhooks/inbox-key-ring.util';
import { TypeOrmInboxStore } from '../../../apps/reference-app/src/webhooks/typeorm-inbox.store';
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
const lock = (name: string): Partial<JobLockEntity> => ({ name });

describe.each(DATABASE_KINDS)('UnitOfWork commit durability on %s', (kind) => {
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
        await m.insert(JobLockEntity, lock('relaxed-write'));
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
    expect(await other.dataSource.getRepository(JobLockEntity).countBy({ name: 'relaxed-write' })).toBe(1);
  });

  it('restores full commits after a relaxed transaction that rolled back, and keeps none of its writes', async () => {
    await expect(
      db.uow.transaction(
        async (m) => {
          await m.insert(JobLockEntity, lock('rolled-back'));
          throw new Error('handler failed');
        },
        { durability: 'relaxed' },
      ),
    ).rejects.toThrow('handler failed');
    expect(await db.uow.transaction((m) => commitLevel(db, m))).toBe(FULL[kind]);
    expect(await db.dataSource.getRepository(JobLockEntity).countBy({ name: 'rolled-back' })).toBe(0);
  });

  it('a relaxed transaction opened inside a full one joins it: the outer commit, full, counts', async () => {
    const level = await db.uow.transaction(() =>
      db.uow.transaction((inner) => commitLevel(db, inner), { durability: 'relaxed' }),
    );
    expect(level).toBe(FULL[kind]);
  });

  it('the inbox processes entries in relaxed transactions and records deliveries in full ones', async () => {
    const store = new TypeOrmInboxStore(db.uow, new InboxKeyRing([{ id: 'k1', key: Buffer.alloc(32, 7) }]));
    const eventId = `evt_durability_${kind}`;
    const recorded = await store.recordBatch([
      {
        eventId,
        name: 'user.created',
        envelope: 'flat',
        rawBody: JSON.stringify({ event: 'user.created', data: { event_id: eventId } }),
        receivedAt: new Date(),
      },
    ]);
    expect(recorded).toEqual(['new']);
    expect(await db.uow.run((m) => commitLevel(db, m))).toBe(FULL[kind]);
    // The handlers run inside the processing transaction: what they would commit with.
    const outcomes = await store.processBatch([eventId], () => db.uow.run((m) => commitLevel(db, m)));
    expect(outcomes).toEqual([{ eventId, outcome: 'processed', value: RELAXED[kind] }]);
    const full = new TypeOrmInboxStore(db.uow, new InboxKeyRing([{ id: 'k1', key: Buffer.alloc(32, 7) }]), {
      processingDurability: 'full',
    });
    const again = `${eventId}_full`;
    await full.recordBatch([
      { eventId: again, name: 'user.created', envelope: 'flat', rawBody: '{}', receivedAt: new Date() },
    ]);
    const fullOutcomes = await full.processBatch([again], () => db.uow.run((m) => commitLevel(db, m)));
    expect(fullOutcomes).toEqual([{ eventId: again, outcome: 'processed', value: FULL[kind] }]);
  });
});
