import { DataSource, MigrationExecutor } from 'typeorm';
import { partnerJobLockKey } from '@partner-payments/typeorm';
import { buildDataSourceOptions, type DataSourceExtras } from './data-source.options';
import type { ParsedDatabaseUrl } from './database-url.util';

/**
 * Connects and runs pending migrations, before anything else touches the database. Used by the
 * app module and the tests.
 *
 * On PostgreSQL the migrations run under a session advisory lock: replicas starting at once (a
 * fresh database, a rolling deploy with a new migration) would otherwise all run the same pending
 * migration; one fails its boot on "relation already exists", and a data migration could be
 * applied twice. The first replica migrates, the others wait, then find nothing pending.
 */
export async function openDataSource(db: ParsedDatabaseUrl, extras: DataSourceExtras): Promise<DataSource> {
  const dataSource = new DataSource(buildDataSourceOptions(db, extras));
  await dataSource.initialize();
  try {
    if (db.kind === 'postgres') await migrateExclusively(dataSource);
    else await dataSource.runMigrations();
  } catch (error) {
    await dataSource.destroy();
    throw error;
  }
  return dataSource;
}

/** How often a replica waiting for another's migrations asks for the lock again. */
const MIGRATION_LOCK_POLL_MS = 250;

async function migrateExclusively(dataSource: DataSource): Promise<void> {
  // The job locks' key space (namespaced per job name): migrating is one more job that runs once.
  const key = partnerJobLockKey('schema-migrations');
  const runner = dataSource.createQueryRunner();
  await runner.connect();
  try {
    // A replica must not serve before the schema is there, so it waits; but by polling, not with
    // pg_advisory_lock. A session blocked in that call holds its statement's snapshot for the whole
    // wait, and CREATE INDEX CONCURRENTLY (migration 1764700000000) waits for every older snapshot
    // to end: the migrating replica would wait for the waiting one, which waits for its lock
    // (measured: the build stalled until the lock was released).
    let migrationFailed = false;
    while (!(await runner.query('SELECT pg_try_advisory_lock($1::bigint) AS ok', [key]))[0].ok)
      await new Promise((resolve) => setTimeout(resolve, MIGRATION_LOCK_POLL_MS));
    try {
      // The migrations run on the session that holds the lock. A replica of an older version,
      // which still waits in pg_advisory_lock, then closes a cycle PostgreSQL's deadlock detector
      // sees (the build waits for the waiter's snapshot, the waiter for this session's lock): one
      // of the two fails with "deadlock detected" after deadlock_timeout and is started again,
      // instead of both waiting for ever (the lock held by another session of this process
      // hid the cycle from it; review of 85da00b).
      const executor = new MigrationExecutor(dataSource, runner);
      executor.transaction = dataSource.options.migrationsTransactionMode ?? 'all';
      await executor.executePendingMigrations();
    } catch (error) {
      migrationFailed = true;
      throw error;
    } finally {
      // A failed unlock must not hide the migration's own error (the caller destroys the pool,
      // which closes the session and so releases the lock anyway).
      await runner.query('SELECT pg_advisory_unlock($1::bigint)', [key]).catch((unlockError: unknown) => {
        if (!migrationFailed) throw unlockError;
      });
    }
  } finally {
    await runner.release();
  }
}
