import { PayoutEntity } from '../../../apps/reference-app/src/app-entities.constants';
import { PayoutProjection } from '../../../apps/reference-app/src/payouts/payout-projection.service';
import { DATABASE_KINDS, openTestDatabase, type TestDatabase } from '../../setup/test-database.fixture';

// Boots real servers and databases; jest.config.js's per-project testTimeout is not applied by Jest.
jest.setTimeout(30_000);

describe.each(DATABASE_KINDS)('PayoutProjection on %s', (kind) => {
  let db: TestDatabase;
  let projection: PayoutProjection;

  beforeAll(async () => {
    db = await openTestDatabase(kind, 'projection');
    projection = new PayoutProjection(db.uow);
  });
  afterAll(async () => db?.close());

  it('creates the row, moves forward, ignores late events and fills in details', async () => {
    const created = await projection.apply({
      payoutId: 'p1',
      status: 'created',
      source: 'create',
      amount: '100.00',
      currency: 'USD',
      recipientId: 'r1',
    });
    expect(created).toMatchObject({ outcome: 'created', status: 'CREATED' });
    expect(created.row.version).toBe(1);

    expect(await projection.apply({ payoutId: 'p1', status: 'PROCESSING', source: 'webhook' })).toMatchObject(
      { outcome: 'changed', previousStatus: 'CREATED', status: 'PROCESSING' },
    );
    expect(
      await projection.apply({
        payoutId: 'p1',
        status: 'completed',
        source: 'webhook',
        referenceNumber: 'IMAD123',
      }),
    ).toMatchObject({ outcome: 'changed', status: 'COMPLETED' });
    // A late PROCESSING (re-ordered delivery) must not undo the completion.
    const late = await projection.apply({ payoutId: 'p1', status: 'processing', source: 'webhook' });
    expect(late).toMatchObject({ outcome: 'unchanged', reason: 'stale', status: 'COMPLETED' });

    const row = await db.dataSource.getRepository(PayoutEntity).findOneByOrFail({ payoutId: 'p1' });
    expect(row).toMatchObject({
      status: 'COMPLETED',
      previousStatus: 'PROCESSING',
      referenceNumber: 'IMAD123',
      amount: '100.00',
      recipientId: 'r1',
      lastSource: 'webhook',
      version: 3,
    });
  });

  it('moves COMPLETED to FAILED on a bank return, then stays final', async () => {
    await projection.apply({ payoutId: 'p2', status: 'COMPLETED', source: 'webhook' });
    expect(await projection.apply({ payoutId: 'p2', status: 'returned', source: 'webhook' })).toMatchObject({
      outcome: 'changed',
      reason: 'bank-return',
      status: 'FAILED',
    });
    expect(
      await projection.apply({
        payoutId: 'p2',
        status: 'COMPLETED',
        source: 'reconciliation',
        errorCode: 'R01',
      }),
    ).toMatchObject({ outcome: 'unchanged', reason: 'final', status: 'FAILED' });
    const row = await db.dataSource.getRepository(PayoutEntity).findOneByOrFail({ payoutId: 'p2' });
    expect(row).toMatchObject({
      status: 'FAILED',
      previousStatus: 'COMPLETED',
      errorCode: 'R01',
      lastSource: 'reconciliation',
    });
  });

  // PostgreSQL: two pools, as two replicas would have. SQLite is a single-process database for this
  // app (one connection, every access serialized by the PartnerUnitOfWork), so the racers share it.
  it('converges to the furthest status when many writers race', async () => {
    const other = kind === 'postgres' ? new PayoutProjection((await db.openAnother()).uow) : projection;
    const statuses = [
      'PENDING',
      'PROCESSING',
      'KYT_PENDING',
      'IN_REVIEW',
      'COMPLETED',
      'CREATED',
      'PROCESSING',
      'PENDING',
    ];
    const results = await Promise.all(
      [...statuses, ...statuses].map((status, i) =>
        (i % 2 ? other : projection).apply({ payoutId: 'p3', status, source: 'webhook' }),
      ),
    );
    const row = await db.dataSource.getRepository(PayoutEntity).findOneByOrFail({ payoutId: 'p3' });
    expect(row.status).toBe('COMPLETED');
    expect(results.filter((r) => r.outcome === 'created')).toHaveLength(1);
    // Every applied change bumped the version exactly once: no lost or doubled write.
    const changes = results.filter((r) => r.outcome === 'changed').length;
    expect(row.version).toBe(1 + changes);
  });
});
