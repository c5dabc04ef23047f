import type { DataSource, DataSourceOptions } from 'typeorm';
import { APP_ENTITIES } from './app-entities.constants';
import {
  buildDataSourceOptions as databaseOptions,
  type DataSourceExtras,
} from './database/data-source.options';
import { openDataSource as openDatabase } from './database/data-source.util';
import type { ParsedDatabaseUrl } from './database/database-url.util';

/** DataSource settings other than the entities, which are the app's (APP_ENTITIES). */
export type AppDataSourceExtras = Omit<DataSourceExtras, 'entities'>;

/**
 * The app's TypeORM options: its entities, the checked-in migrations. For tools outside Nest (the
 * TypeORM CLI, scripts, tests); the running app builds the same through DatabaseModule.forRoot.
 */
export function buildDataSourceOptions(
  db: ParsedDatabaseUrl,
  extras: AppDataSourceExtras = {},
): DataSourceOptions {
  return databaseOptions(db, { ...extras, entities: APP_ENTITIES });
}

/** Connects with the app's entities and runs pending migrations (database/data-source.util.ts). */
export function openDataSource(db: ParsedDatabaseUrl, extras: AppDataSourceExtras = {}): Promise<DataSource> {
  return openDatabase(db, { ...extras, entities: APP_ENTITIES });
}
