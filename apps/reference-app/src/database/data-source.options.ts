import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import type { DataSourceOptions } from 'typeorm';
import { MIGRATIONS } from './migrations';
import type { ParsedDatabaseUrl } from './database-url.util';

export interface DataSourceExtras {
  /** The entity classes. The app assembles them from its feature folders (app-entities.constants.ts): database/ knows no feature. */
  entities: NonNullable<DataSourceOptions['entities']>;
  /** Log SQL (debugging only). Default false. */
  logging?: boolean;
  /** SQLite: how long a writer waits for another process's lock before SQLITE_BUSY. Default 5000 ms. */
  busyTimeoutMs?: number;
  /** PostgreSQL pool size. Default 10. */
  poolSize?: number;
  /**
   * PostgreSQL: longest wait for a pool connection (a free slot, or a new connection to open),
   * in ms, before the statement fails instead of waiting on. Default 10000.
   */
  connectTimeoutMs?: number;
}

/**
 * TCP keep-alive on every PostgreSQL connection, first probe after this idle time: a connection
 * whose peer vanished without FIN or RST (a failover, a dropped NAT entry) is eventually closed by
 * the kernel and left by the pool, instead of being handed out dead. The probe interval and count
 * are the kernel's (Linux: 75 s, 9 probes), so this is the slow net; statements that must answer
 * in time carry their own bound (BoundedPoolQuery).
 */
const PG_KEEPALIVE_DELAY_MS = 10_000;

/**
 * TypeORM 1.x options for either database. Migrations are run by openDataSource right after
 * initialize() (on PostgreSQL under a lock, see there); `synchronize` stays off: the checked-in
 * migrations are the schema.
 */
export function buildDataSourceOptions(db: ParsedDatabaseUrl, extras: DataSourceExtras): DataSourceOptions {
  const common = {
    entities: extras.entities,
    migrations: MIGRATIONS,
    migrationsRun: false,
    migrationsTransactionMode: 'each' as const,
    synchronize: false,
    logging: extras.logging ?? false,
  };
  if (db.kind === 'postgres') {
    return {
      ...common,
      type: 'postgres',
      url: db.url,
      poolSize: extras.poolSize ?? 10,
      // pg-pool's connectionTimeoutMillis: covers the wait for a slot and the connect itself.
      connectTimeoutMS: extras.connectTimeoutMs ?? 10_000,
      // pg's Client options (TypeORM passes `extra` to the pg Pool as is).
      extra: { keepAlive: true, keepAliveInitialDelayMillis: PG_KEEPALIVE_DELAY_MS },
    };
  }
  if (db.path !== ':memory:') mkdirSync(dirname(db.path), { recursive: true });
  return {
    ...common,
    type: 'better-sqlite3',
    database: db.path,
    // WAL: readers do not block the writer; the busy timeout covers a second process on the file.
    enableWAL: true,
    timeout: extras.busyTimeoutMs ?? 5000,
    prepareDatabase: (raw: { pragma(sql: string): unknown }) => {
      // FULL, not NORMAL: with WAL, NORMAL may lose the last commits on power loss, and an inbox
      // row we acknowledged must survive (spec 6.1.4: no redelivery).
      raw.pragma('synchronous = FULL');
      raw.pragma('foreign_keys = ON');
    },
  };
}
