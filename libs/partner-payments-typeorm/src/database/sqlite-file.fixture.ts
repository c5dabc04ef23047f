import { DataSource } from 'typeorm';
import { partnerTypeOrmEntities, partnerTypeOrmMigrations } from '../partner-payments-typeorm.constants';

/**
 * A better-sqlite3 DataSource on `file` with the package's entities, its migrations run, in WAL
 * with synchronous=FULL, as the package's README sets an app up. For the specs beside the source.
 */
export async function openPackageSqliteFile(file: string): Promise<DataSource> {
  const ds = new DataSource({
    type: 'better-sqlite3',
    database: file,
    entities: [...partnerTypeOrmEntities],
    migrations: [...partnerTypeOrmMigrations],
    prepareDatabase: (db: { pragma(source: string): unknown }) => {
      db.pragma('journal_mode = WAL');
      db.pragma('synchronous = FULL');
    },
  });
  await ds.initialize();
  await ds.runMigrations();
  return ds;
}
