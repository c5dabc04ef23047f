import { PartnerJobLockEntity, PartnerJobLockService } from '@partner-payments/typeorm';
import { openPackageDatabase, type PackageDatabase } from './typeorm-database.fixture';

jest.setTimeout(30_000);

/**
 * TypeORM's better-sqlite3 driver has one connection: a statement sent while another async flow of
 * the app holds a transaction open on it would run inside that transaction. The lock's statements
 * wait for it to end instead, so a rollback there takes none of them with it.
 */
describe('PartnerJobLockService on SQLite beside a transaction of the app', () => {
  let db: PackageDatabase;
  beforeAll(async () => (db = await openPackageDatabase('sqlite', 'lock-tx')));
  afterAll(async () => db?.close());

  it('keeps its lease and its record out of a transaction another flow rolls back', async () => {
    const locks = new PartnerJobLockService(db.dataSource, { holder: 'replica-a' });
    let release!: () => void;
    let opened!: () => void;
    const isOpen = new Promise<void>((r) => (opened = r));
    const rolledBack = db.dataSource
      .transaction(async (m) => {
        await m.query('INSERT INTO job_locks (name, runs) VALUES (?, 0)', ['written-by-the-app']);
        opened();
        await new Promise<void>((r) => (release = r));
        throw new Error('the app rolls back');
      })
      .catch((error: Error) => error.message);
    await isOpen;
    const run = locks.runExclusive('beside-a-transaction', async () => 'ran');
    await new Promise((r) => setTimeout(r, 200));
    release();
    expect(await rolledBack).toBe('the app rolls back');
    expect(await run).toEqual({ ran: true, result: 'ran' });
    const rows = db.dataSource.getRepository(PartnerJobLockEntity);
    expect(await rows.findOneBy({ name: 'written-by-the-app' })).toBeNull();
    expect(await rows.findOneByOrFail({ name: 'beside-a-transaction' })).toMatchObject({
      holder: 'replica-a',
      runs: 1,
      lastOutcome: 'ok',
      leaseHolder: null,
    });
  });
});
