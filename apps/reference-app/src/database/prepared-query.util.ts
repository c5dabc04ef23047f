import type { Pool, PoolClient } from 'pg';
import type { EntityManager } from 'typeorm';

/** The pg connection a PostgreSQL transaction's EntityManager runs on. */
export function pgConnectionOf(m: EntityManager): PoolClient {
  const connection = (m.queryRunner as unknown as { databaseConnection?: PoolClient } | undefined)
    ?.databaseConnection;
  if (!connection) throw new Error('no PostgreSQL connection in this unit of work');
  return connection;
}

/** TypeORM's pg pool (its master), for statements outside any transaction. */
export function pgPoolOf(m: EntityManager): Pool {
  return (m.connection.driver as unknown as { master: Pool }).master;
}

/**
 * A statement on the hot path (issue 14), run in `m`'s transaction, or on its own (autocommit)
 * when `m` has none. PostgreSQL: a named statement on the pg connection, parsed and planned once
 * per connection (an unnamed one, as TypeORM sends, is parsed and planned on every call, on the
 * same two cores); pg remembers which of its connections already prepared `name`. It is told to
 * TypeORM's logger as TypeORM's own statements are (query logging, statement counts). SQLite:
 * TypeORM's better-sqlite3 runner, which keeps prepared statements by SQL text. `name` must always
 * be sent with the same `sql`.
 */
export async function preparedQuery(
  m: EntityManager,
  name: string,
  sql: string,
  params: unknown[],
): Promise<Array<Record<string, unknown>>> {
  if (m.connection.options.type !== 'postgres') return m.query(sql, params);
  const on = m.queryRunner ? pgConnectionOf(m) : pgPoolOf(m);
  m.connection.logger.logQuery(sql, params, m.queryRunner);
  return (await on.query<Record<string, unknown>>({ name, text: sql, values: params })).rows;
}
