/**
 * The projections read and write their rows with ProjectionTable (a new row in one
 * insert, an existing one read, locked on PostgreSQL, and written back in one UPDATE) instead of
 * the query builder and save(). Values round-trip
 * as TypeORM's own mapping gives them, and on PostgreSQL two events for one user in concurrent
 * transactions are applied one after the other: neither overwrites the other's fields.
 */
import { PartnerUserEntity } from '../../../apps/reference-app/src/app-entities.constants';
import { ResourceProjections } from '../../../apps/reference-app/src/webhooks/projections/resource-projections.service';
import { countQueries } from '../../setup/query-counter.fixture';
import { DATABASE_KINDS, openTestDatabase, type TestDatabase } from '../../setup/test-database.fixture';

jest.setTimeout(60_000);

const t0 = new Date('2026-11-24T09:00:00.123Z');

/** The liveness result for `userId`, applied through `projections`. */
function applyLiveness(projections: ResourceProjections, userId: string) {
  return projections.applyUser({ eventName: 'user.liveness.completed', userId, livenessResult: 'pass' });
}

describe.each(DATABASE_KINDS)('projection rows through ProjectionTable (%s)', (kind) => {
  let db: TestDatabase;
  beforeAll(async () => {
    db = await openTestDatabase(kind, 'projtable');
  });
  afterAll(async () => db?.close());

  it('creates, reads back and updates a row with the values TypeORM itself reads', async () => {
    const projections = new ResourceProjections(db.uow, () => t0);
    const created = await projections.applyUser({
      eventName: 'user.created',
      userId: 'pt-user',
      status: 'CREATED',
      metadata: { ref: 'a' },
    });
    expect(created).toBeInstanceOf(PartnerUserEntity);
    await applyLiveness(projections, 'pt-user');
    const row = await db.dataSource.getRepository(PartnerUserEntity).findOneByOrFail({ userId: 'pt-user' });
    expect(row).toEqual({
      userId: 'pt-user',
      status: 'CREATED',
      previousStatus: null,
      rejectionReasons: null,
      livenessResult: 'pass',
      metadata: '{"ref":"a"}',
      lastEventName: 'user.liveness.completed',
      eventAt: null,
      updatedAt: t0,
    });
  });

  it('applies two events for one user in concurrent transactions one after the other', async () => {
    const other = await db.openAnother();
    const first = new ResourceProjections(db.uow, () => t0);
    const second = new ResourceProjections(other.uow, () => t0);
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    let firstHolds!: () => void;
    const held = new Promise<void>((resolve) => (firstHolds = resolve));
    // The first transaction holds the user (its created event) until the gate opens...
    const slow = db.uow.transaction(async () => {
      const row = await first.applyUser({
        eventName: 'user.created',
        userId: 'pt-race',
        metadata: { ref: 'm' },
      });
      firstHolds();
      await gate;
      return row;
    });
    await held;
    // ...while another replica applies the liveness result. SQLite has one writer: the second
    // connection runs after the first commits. PostgreSQL: it waits for the row lock.
    const fast = kind === 'postgres' ? applyLiveness(second, 'pt-race') : null;
    await new Promise((resolve) => setTimeout(resolve, 100));
    release();
    await slow;
    if (fast) await fast;
    else await applyLiveness(second, 'pt-race');
    const row = await db.dataSource.getRepository(PartnerUserEntity).findOneByOrFail({ userId: 'pt-race' });
    expect(row).toMatchObject({
      metadata: '{"ref":"m"}',
      livenessResult: 'pass',
      lastEventName: 'user.liveness.completed',
    });
  });

  it('writes a new row in one statement (inserted as the event makes it), an existing one in two writes', async () => {
    const projections = new ResourceProjections(db.uow, () => t0);
    const statements = async (work: () => Promise<unknown>) => {
      const queries = countQueries(db.dataSource);
      try {
        await work();
      } finally {
        queries.stop();
      }
      const { reads, writes } = queries.counts();
      return { reads, writes };
    };
    // An existing row: PostgreSQL's upsert returns it locked; SQLite's insert does nothing and the
    // row is read by its key. Either way one UPDATE writes it.
    const existing = { reads: kind === 'postgres' ? 0 : 1, writes: 2 };
    const created = () =>
      projections.applyUser({
        eventName: 'user.created',
        userId: 'pt-one',
        status: 'CREATED',
        metadata: { a: 1 },
      });
    // SQLite too: one row write instead of an insert and the UPDATE rewriting it.
    expect(await statements(created)).toEqual({ reads: 0, writes: 1 });
    expect(await statements(() => applyLiveness(projections, 'pt-one'))).toEqual(existing);
    const row = await db.dataSource.getRepository(PartnerUserEntity).findOneByOrFail({ userId: 'pt-one' });
    expect(row).toMatchObject({
      status: 'CREATED',
      previousStatus: null,
      metadata: '{"a":1}',
      livenessResult: 'pass',
      lastEventName: 'user.liveness.completed',
    });
    // The same created event again (a replay) finds the row and converges to the same fields.
    expect(await statements(created)).toEqual(existing);
    expect(
      await db.dataSource.getRepository(PartnerUserEntity).findOneByOrFail({ userId: 'pt-one' }),
    ).toMatchObject({
      status: 'CREATED',
      livenessResult: 'pass',
      metadata: '{"a":1}',
    });
  });
});
