import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { QueryFailedError, type DataSource } from 'typeorm';
import { PartnerJobLockEntity } from '../job-locks/job-lock.entity';
import { openPackageSqliteFile } from './sqlite-file.fixture';
import { preparedQuery } from './prepared-query.util';
import { PartnerUnitOfWork } from './unit-of-work.service';

/** SQLite: the statement on TypeORM's connection itself (PostgreSQL: test/app/reconciliation). */
describe('preparedQuery on a SQLite file', () => {
  let dir: string;
  let ds: DataSource;
  let uow: PartnerUnitOfWork;
  const logged: string[] = [];
  const failed: string[] = [];

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'ref-app-prepared-'));
    ds = await openPackageSqliteFile(join(dir, 'prepared.sqlite'));
    uow = new PartnerUnitOfWork(ds);
    // Observe what TypeORM's logger is told (query logging and the benchmarks' statement counts).
    ds.logger.logQuery = (sql: string) => void logged.push(sql);
    ds.logger.logQueryError = (_error: string | Error, sql: string) => void failed.push(sql);
  });
  afterAll(async () => {
    await ds?.destroy();
    rmSync(dir, { recursive: true, force: true });
  });
  beforeEach(() => {
    logged.length = 0;
    failed.length = 0;
  });

  const INSERT = 'INSERT INTO job_locks (name, runs) VALUES (?, ?)';
  const count = async (name: string) => ds.getRepository(PartnerJobLockEntity).countBy({ name });

  it("lands in the unit of work's transaction: kept on commit, gone on rollback", async () => {
    await uow.transaction((m) => preparedQuery(m, 'insert_lock', INSERT, ['committed', 0]));
    await expect(
      uow.transaction(async (m) => {
        await preparedQuery(m, 'insert_lock', INSERT, ['rolled-back', 0]);
        throw new Error('abort');
      }),
    ).rejects.toThrow('abort');
    expect(await count('committed')).toBe(1);
    expect(await count('rolled-back')).toBe(0);
  });

  it('answers the rows of a statement that returns rows, and none for one that does not', async () => {
    const inserted = await uow.run((m) =>
      preparedQuery(m, 'insert_lock_returning', `${INSERT} RETURNING name, runs`, ['returning', 3]),
    );
    expect(inserted).toEqual([{ name: 'returning', runs: 3 }]);
    const updated = await uow.run((m) =>
      preparedQuery(m, 'bump', 'UPDATE job_locks SET runs = runs + 1 WHERE name = ?', ['returning']),
    );
    expect(updated).toEqual([]);
    const [row] = await uow.run((m) =>
      preparedQuery(m, 'read', 'SELECT runs FROM job_locks WHERE name = ?', ['returning']),
    );
    expect(row).toEqual({ runs: 4 });
    expect(logged).toEqual([
      `${INSERT} RETURNING name, runs`,
      'UPDATE job_locks SET runs = runs + 1 WHERE name = ?',
      'SELECT runs FROM job_locks WHERE name = ?',
    ]);
  });

  it('binds booleans as 1 and 0, as TypeORM does (better-sqlite3 refuses them)', async () => {
    const [row] = await uow.run((m) => preparedQuery(m, 'flags', 'SELECT ? AS yes, ? AS no', [true, false]));
    expect(row).toEqual({ yes: 1, no: 0 });
  });

  it("logs a failing statement and throws TypeORM's QueryFailedError with the driver's error", async () => {
    await uow.run((m) => preparedQuery(m, 'insert_lock', INSERT, ['twice', 0]));
    const duplicate = uow.run((m) => preparedQuery(m, 'insert_lock', INSERT, ['twice', 0]));
    await expect(duplicate).rejects.toBeInstanceOf(QueryFailedError);
    await expect(duplicate).rejects.toMatchObject({
      query: INSERT,
      driverError: expect.objectContaining({ code: 'SQLITE_CONSTRAINT_PRIMARYKEY' }),
    });
    const unknown = uow.run((m) => preparedQuery(m, 'bad', 'SELECT * FROM no_such_table', []));
    await expect(unknown).rejects.toBeInstanceOf(QueryFailedError);
    expect(failed).toEqual([INSERT, 'SELECT * FROM no_such_table']);
    expect(await count('twice')).toBe(1);
  });
});
