import { DataSource } from 'typeorm';
import { buildDataSourceOptions, type DataSourceExtras } from './data-source.options';
import type { ParsedDatabaseUrl } from './database-url.parser';

/** Connects and runs pending migrations (migrationsRun). Used by the app module and the tests. */
export async function openDataSource(
  db: ParsedDatabaseUrl,
  extras: DataSourceExtras = {},
): Promise<DataSource> {
  const dataSource = new DataSource(buildDataSourceOptions(db, extras));
  await dataSource.initialize();
  return dataSource;
}
