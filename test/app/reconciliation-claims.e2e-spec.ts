/**
 * Issue 14: the claims that make each payout checked once per pass across replicas, raced directly
 * by two connections ("replicas") on one database, SQLite file and PostgreSQL.
 */
import { PayoutEntity } from '../../apps/reference-app/src/database/entities';
import type { UnitOfWork } from '../../apps/reference-app/src/database/unit-of-work.service';
import { PayoutClaims } from '../../apps/reference-app/src/reconciliation/payout-claims.store';
import { ReconciliationPassStore } from '../../apps/reference-app/src/reconciliation/reconciliation-pass.store';
import { DATABASE_KINDS, openTestDatabase, type TestDatabase } from '../setup/test-database.helper';

jest.setTimeout(60_000);

describe.each(DATABASE_KINDS)('reconciliation claims on %s', (kind) => {
  let db: TestDatabase;
  let other: { uow: UnitOfWork };
  const ids = Array.from({ length: 400 }, (_, i) => `p-${String(i).padStart(4, '0')}`);

  beforeAll(async () => {
    db = await openTestDatabase(kind, 'claims');
    other = await db.openAnother();
    const created = new Date(Date.now() - 60_000);
    const rows = ids.map((payoutId) => ({
      payoutId,
      status: 'PENDING',
      lastSource: 'webhook' as const,
      createdAt: created,
      updatedAt: created,
      checkFailures: 0,
      version: 1,
    }));
    for (let at = 0; at < rows.length; at += 200)
      await db.uow.run((m) => m.insert(PayoutEntity, rows.slice(at, at + 200)));
  });
  afterAll(() => db?.close());

  const openPass = async () => {
    const store = new ReconciliationPassStore(db.uow, `claims-${Math.random()}`);
    return (await store.joinOrOpen(new Date(), null, { fromDate: null, readBefore: null }))!;
  };

  it('two replicas claiming the same listed payouts at once get disjoint sets covering them all', async () => {
    const pass = await openPass();
    const mine = new PayoutClaims(db.uow, 72);
    const theirs = new PayoutClaims(other.uow, 72);
    const now = new Date();
    // Overlapping pages (as when the list shifts under paging): each claims ids[0..299] and ids[100..399].
    const [a1, b1, a2, b2] = await Promise.all([
      mine.claimListed(pass, ids.slice(0, 300), now),
      theirs.claimListed(pass, ids.slice(100), now),
      mine.claimListed(pass, ids.slice(100), now),
      theirs.claimListed(pass, ids.slice(0, 300), now),
    ]);
    const claimed = [...a1, ...b1, ...a2, ...b2].map((r) => r.payoutId);
    expect(claimed).toHaveLength(ids.length);
    expect(new Set(claimed)).toEqual(new Set(ids));
    // Claimed rows come back as entities with their version (the projection writes against it).
    expect(a1.concat(b1)[0]).toMatchObject({ status: 'PENDING', version: 1, createdAt: expect.any(Date) });
    // Nothing is left for the batches of single reads, in either replica.
    expect(await mine.claimNext(pass, 50, now, null)).toEqual([]);
  });

  it('batches of single reads (FOR UPDATE SKIP LOCKED on PostgreSQL) never hand one payout to both', async () => {
    const pass = await openPass();
    const replicas = [new PayoutClaims(db.uow, 72), new PayoutClaims(other.uow, 72)];
    const claimed: string[] = [];
    await Promise.all(
      replicas.map(async (claims) => {
        for (;;) {
          const rows = await claims.claimNext(pass, 25, new Date(), null);
          if (rows.length === 0) return;
          claimed.push(...rows.map((r) => r.payoutId));
        }
      }),
    );
    expect(claimed).toHaveLength(ids.length);
    expect(new Set(claimed)).toEqual(new Set(ids));
  });
});
