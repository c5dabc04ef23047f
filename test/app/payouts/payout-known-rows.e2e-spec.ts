/**
 * PayoutProjection.withKnownRows, as reconciliation uses it: the rows it claimed are not
 * read again, and with deferWrites every write of the batch goes out in one statement, each still
 * guarded by its version (a row another writer changed meanwhile is decided again from the
 * database). SQLite file and PostgreSQL.
 */
import { PayoutEntity } from '../../../apps/reference-app/src/app-entities.constants';
import { PayoutProjection } from '../../../apps/reference-app/src/payouts/payout-projection.service';
import { countQueries } from '../../setup/query-counter.fixture';
import { DATABASE_KINDS, openTestDatabase, type TestDatabase } from '../../setup/test-database.fixture';

jest.setTimeout(30_000);

describe.each(DATABASE_KINDS)('PayoutProjection.withKnownRows on %s', (kind) => {
  let db: TestDatabase;
  let projection: PayoutProjection;

  beforeAll(async () => {
    db = await openTestDatabase(kind, 'known-rows');
    projection = new PayoutProjection(db.uow);
  });
  afterAll(async () => db?.close());

  const insert = (payoutId: string, status: string) =>
    db.uow.run((m) =>
      m.insert(PayoutEntity, {
        payoutId,
        status,
        lastSource: 'webhook',
        createdAt: new Date(),
        updatedAt: new Date(),
        checkFailures: 0,
        version: 1,
      }),
    );
  const load = (ids: string[]) =>
    Promise.all(ids.map((payoutId) => db.uow.run((m) => m.findOneByOrFail(PayoutEntity, { payoutId }))));

  it('defers the writes of known rows and makes them in one statement, with no read', async () => {
    const ids = ['k1', 'k2', 'k3'];
    for (const id of ids) await insert(id, 'PENDING');
    const rows = await load(ids);
    const queries = countQueries(db.dataSource);
    const results = await projection.withKnownRows(
      rows,
      () =>
        db.uow.transaction(async () => {
          const out = [
            await projection.apply({ payoutId: 'k1', status: 'PROCESSING', source: 'reconciliation' }),
            await projection.apply({
              payoutId: 'k2',
              status: 'FAILED',
              source: 'reconciliation',
              errorCode: 'R01',
            }),
            await projection.apply({ payoutId: 'k3', status: 'PENDING', source: 'reconciliation' }),
          ];
          await projection.flushDeferred();
          return out;
        }),
      { deferWrites: true },
    );
    queries.stop();
    expect(queries.counts()).toMatchObject({ reads: 0, writes: 1 });
    expect(results.map((r) => [r.outcome, r.status, r.row.version])).toEqual([
      ['changed', 'PROCESSING', 2],
      ['changed', 'FAILED', 2],
      ['unchanged', 'PENDING', 1],
    ]);
    const stored = await load(ids);
    expect(stored.map((r) => [r.status, r.previousStatus, r.errorCode, r.lastSource, r.version])).toEqual([
      ['PROCESSING', 'PENDING', null, 'reconciliation', 2],
      ['FAILED', 'PENDING', 'R01', 'reconciliation', 2],
      ['PENDING', null, null, 'webhook', 1],
    ]);
  });

  it('a row another writer changed since it was read is decided again from the database, never moved back', async () => {
    await insert('k4', 'PENDING');
    const [stale] = await load(['k4']);
    // A webhook fails it meanwhile (version 2).
    await projection.apply({
      payoutId: 'k4',
      status: 'FAILED',
      source: 'webhook',
      errorCode: 'PAYMENT_FAILED',
    });
    const result = await projection.withKnownRows(
      [stale],
      () =>
        db.uow.transaction(async () => {
          // Decided against the stale row (PENDING -> COMPLETED looks forward)...
          const r = await projection.apply({ payoutId: 'k4', status: 'COMPLETED', source: 'reconciliation' });
          await projection.flushDeferred();
          return r;
        }),
      { deferWrites: true },
    );
    expect(result.status).toBe('COMPLETED');
    // ...but the write was refused by its version and decided again: FAILED is final.
    const [stored] = await load(['k4']);
    expect(stored).toMatchObject({
      status: 'FAILED',
      errorCode: 'PAYMENT_FAILED',
      lastSource: 'webhook',
      version: 2,
    });
  });
});
