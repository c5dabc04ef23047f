/**
 * A migrated database for one suite: a SQLite file in a fresh temp dir, or a fresh database on
 * the throwaway PostgreSQL of the globalSetup. Both go through the app's own openDataSource, so
 * the checked-in migrations are what is tested.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { DataSource } from 'typeorm';
import { parseDatabaseUrl, type DatabaseKind } from '../../apps/reference-app/src/database/database-url.util';
import { openDataSource } from '../../apps/reference-app/src/app-data-source.util';
import { PartnerUnitOfWork } from '@partner-payments/typeorm';
import { freshPostgresUrl } from './postgres.fixture';

export const DATABASE_KINDS: DatabaseKind[] = ['sqlite', 'postgres'];

export interface TestDatabase {
  kind: DatabaseKind;
  url: string;
  dataSource: DataSource;
  uow: PartnerUnitOfWork;
  /** Opens a second, independent connection (another "replica") on the same database. */
  openAnother(): Promise<{ dataSource: DataSource; uow: PartnerUnitOfWork }>;
  close(): Promise<void>;
}

export async function databaseUrlFor(
  kind: DatabaseKind,
  prefix: string,
): Promise<{ url: string; cleanup: () => void }> {
  if (kind === 'postgres') return { url: await freshPostgresUrl(prefix), cleanup: () => undefined };
  const dir = mkdtempSync(join(tmpdir(), `${prefix}-`));
  return {
    url: `sqlite:${join(dir, 'app.sqlite')}`,
    cleanup: () => rmSync(dir, { recursive: true, force: true }),
  };
}

export async function openTestDatabase(kind: DatabaseKind, prefix: string): Promise<TestDatabase> {
  const { url, cleanup } = await databaseUrlFor(kind, prefix);
  const extra: DataSource[] = [];
  const dataSource = await openDataSource(parseDatabaseUrl(url));
  return {
    kind,
    url,
    dataSource,
    uow: new PartnerUnitOfWork(dataSource),
    async openAnother() {
      const other = await openDataSource(parseDatabaseUrl(url));
      extra.push(other);
      return { dataSource: other, uow: new PartnerUnitOfWork(other) };
    },
    async close() {
      for (const ds of [...extra, dataSource]) if (ds.isInitialized) await ds.destroy();
      cleanup();
    },
  };
}

/** Opens (and migrates) an existing database by URL, e.g. to act on it while the app is down. */
export async function openTestDatabaseAt(
  url: string,
): Promise<{ dataSource: DataSource; uow: PartnerUnitOfWork }> {
  const dataSource = await openDataSource(parseDatabaseUrl(url));
  return { dataSource, uow: new PartnerUnitOfWork(dataSource) };
}
