import type { Database, Statement } from 'better-sqlite3';
import type { Pool, PoolClient } from 'pg';
import { QueryFailedError, type EntityManager } from 'typeorm';

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
 * A statement on the hot path, run in `m`'s transaction, or on its own (autocommit)
 * when `m` has none. PostgreSQL: a named statement on the pg connection, parsed and planned once
 * per connection (an unnamed one, as TypeORM sends, is parsed and planned on every call, on the
 * same two cores); pg remembers which of its connections already prepared `name`. SQLite: a
 * better-sqlite3 statement prepared once per SQL text on TypeORM's one connection (sqliteQuery).
 * Either way it is told to TypeORM's logger as TypeORM's own statements are (query logging,
 * statement counts). `name` must always be sent with the same `sql`. Rows for a statement that
 * returns rows, else none.
 */
export async function preparedQuery(
  m: EntityManager,
  name: string,
  sql: string,
  params: unknown[],
): Promise<Array<Record<string, unknown>>> {
  if (m.connection.options.type !== 'postgres') return sqliteQuery(m, sql, params);
  const on = m.queryRunner ? pgConnectionOf(m) : pgPoolOf(m);
  m.connection.logger.logQuery(sql, params, m.queryRunner);
  return (await on.query<Record<string, unknown>>({ name, text: sql, values: params })).rows;
}

/** Statements by SQL text, per better-sqlite3 connection. */
const sqliteStatements = new WeakMap<Database, Map<string, Statement>>();

/**
 * The statement on TypeORM's better-sqlite3 connection itself, as SqliteInboxDriver does. The
 * UnitOfWork serializes every SQLite flow on that one connection, so the statement lands in `m`'s
 * transaction when it has one. TypeORM's runner does the same work around more: three awaits
 * (query subscribers, the statement cache, the subscribers' results), two clocks and a result
 * object per statement, on a path that runs two statements per webhook processed. What it does
 * that matters is kept: booleans bound as 0/1, the query logged, a failure logged and thrown as
 * its QueryFailedError.
 */
function sqliteQuery(m: EntityManager, sql: string, params: unknown[]): Array<Record<string, unknown>> {
  const db = (m.connection.driver as unknown as { databaseConnection: Database }).databaseConnection;
  const values = params.map((p) => (typeof p === 'boolean' ? Number(p) : p));
  m.connection.logger.logQuery(sql, values, m.queryRunner);
  try {
    let statements = sqliteStatements.get(db);
    if (!statements) sqliteStatements.set(db, (statements = new Map()));
    let statement = statements.get(sql);
    if (!statement) statements.set(sql, (statement = db.prepare(sql)));
    if (statement.reader) return statement.all(...values) as Array<Record<string, unknown>>;
    statement.run(...values);
    return [];
  } catch (error) {
    m.connection.logger.logQueryError(error as Error, sql, values, m.queryRunner);
    throw new QueryFailedError(sql, values, error as Error);
  }
}
