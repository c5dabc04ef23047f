/**
 * A database with the package's entities and migrations only, as a user's own DataSource would
 * list them beside theirs: a SQLite file in a fresh temp dir, or a fresh database on the
 * throwaway PostgreSQL of the globalSetup. `openAnother` is a second DataSource on the same
 * database: another replica (PostgreSQL), another process on the file (SQLite).
 */
import { partnerTypeOrmEntities, partnerTypeOrmMigrations } from '@partner-payments/typeorm';
import { DataSource, type DataSourceOptions } from 'typeorm';
import { databaseUrlFor } from '../setup/test-database.fixture';

export type PackageDatabaseKind = 'sqlite' | 'postgres';
export const PACKAGE_DATABASE_KINDS: PackageDatabaseKind[] = ['sqlite', 'postgres'];

export interface PackageDatabase {
  kind: PackageDatabaseKind;
  /** The SQLite file's path, or the PostgreSQL URL. */
  location: string;
  dataSource: DataSource;
  openAnother(): Promise<DataSource>;
  close(): Promise<void>;
}

/** DataSource options on `location` with the given entities and migrations (the package's by default). */
export function packageDataSourceOptions(
  kind: PackageDatabaseKind,
  location: string,
  extra: Partial<Pick<DataSourceOptions, 'entities' | 'migrations' | 'synchronize'>> = {},
): DataSourceOptions {
  const common = {
    entities: [...partnerTypeOrmEntities],
    migrations: [...partnerTypeOrmMigrations],
    ...extra,
  };
  return kind === 'postgres'
    ? { type: 'postgres', url: location, poolSize: 4, ...common }
    : { type: 'better-sqlite3', database: location, enableWAL: true, timeout: 5000, ...common };
}

/** A fresh database: the SQLite file's path, or a fresh PostgreSQL database's URL. */
export async function packageLocationFor(
  kind: PackageDatabaseKind,
  prefix: string,
): Promise<{ location: string; cleanup: () => void }> {
  const { url, cleanup } = await databaseUrlFor(kind, prefix);
  return { location: kind === 'sqlite' ? url.replace(/^sqlite:/, '') : url, cleanup };
}

export async function openPackageDatabase(
  kind: PackageDatabaseKind,
  prefix: string,
): Promise<PackageDatabase> {
  const { location, cleanup } = await packageLocationFor(kind, prefix);
  const open = async (): Promise<DataSource> => {
    const ds = new DataSource(packageDataSourceOptions(kind, location));
    await ds.initialize();
    await ds.runMigrations();
    return ds;
  };
  const all: DataSource[] = [await open()];
  return {
    kind,
    location,
    dataSource: all[0],
    async openAnother() {
      const other = await open();
      all.push(other);
      return other;
    },
    async close() {
      for (const ds of all.reverse()) if (ds.isInitialized) await ds.destroy();
      cleanup();
    },
  };
}
