/**
 * How each database would run a statement: the statements the inbox code sends, captured as the
 * driver receives them, and their query plans (SQLite's EXPLAIN QUERY PLAN, PostgreSQL's EXPLAIN),
 * with the steps that read the inbox whole.
 */
import { Client } from 'pg';
import type { DataSource } from 'typeorm';

export interface Captured {
  sql: string;
  params: unknown[];
}

/** A statement that reads webhook_inbox rows by their state (not one that only sets it). */
export const BY_STATE = /\bwebhook_inbox\b[\s\S]*\bWHERE\b[\s\S]*\bstate\b/i;

/** Every statement prepared on the SQLite connection from now on, with the values it ran with. */
export function captureSqlite(dataSource: DataSource): { captured: Captured[]; stop(): void } {
  type Stmt = Record<'run' | 'all' | 'get', (...args: unknown[]) => unknown>;
  const db = (dataSource.driver as unknown as { databaseConnection: { prepare(sql: string): Stmt } })
    .databaseConnection;
  const prepare = db.prepare;
  const captured: Captured[] = [];
  db.prepare = function (this: unknown, sql: string) {
    const statement = prepare.call(this, sql);
    for (const method of ['run', 'all', 'get'] as const) {
      const original = statement[method];
      statement[method] = function (this: unknown, ...params: unknown[]) {
        captured.push({ sql, params });
        return original.apply(this, params);
      };
    }
    return statement;
  };
  return { captured, stop: () => (db.prepare = prepare) };
}

/** Every statement any pg client sends from now on (TypeORM's and the named hot-path ones). */
export function capturePostgres(): { captured: Captured[]; stop(): void } {
  const proto = Client.prototype as unknown as { query: (...args: unknown[]) => unknown };
  const query = proto.query;
  const captured: Captured[] = [];
  proto.query = function (this: unknown, ...args: unknown[]) {
    const [first, second] = args;
    if (typeof first === 'string') captured.push({ sql: first, params: Array.isArray(second) ? second : [] });
    else if (first && typeof first === 'object' && 'text' in first) {
      const config = first as { text: string; values?: unknown[] };
      captured.push({ sql: config.text, params: config.values ?? [] });
    }
    return query.apply(this, args);
  };
  return { captured, stop: () => (proto.query = query) };
}

/** SQLite: the plan's lines (EXPLAIN QUERY PLAN's `detail`). */
export async function sqlitePlan(dataSource: DataSource, c: Captured): Promise<string[]> {
  const db = (
    dataSource.driver as unknown as {
      databaseConnection: { prepare(sql: string): { all(...p: unknown[]): Array<{ detail: string }> } };
    }
  ).databaseConnection;
  return db
    .prepare(`EXPLAIN QUERY PLAN ${c.sql}`)
    .all(...c.params)
    .map((r) => r.detail);
}

/** PostgreSQL: the plan's node types and relations, with sequential scans priced out of reach. */
export async function postgresPlan(dataSource: DataSource, c: Captured): Promise<string[]> {
  const runner = dataSource.createQueryRunner();
  try {
    await runner.startTransaction();
    await runner.query('SET LOCAL enable_seqscan = off');
    const [row] = await runner.query(`EXPLAIN (FORMAT JSON) ${c.sql}`, c.params);
    const nodes: string[] = [];
    const walk = (n: Record<string, unknown>) => {
      const cond = n['Index Cond'] === undefined ? '' : ' (Index Cond)';
      nodes.push(
        `${String(n['Node Type'])} ${String(n['Relation Name'] ?? '')} ${String(n['Index Name'] ?? '')}${cond}`.trim(),
      );
      for (const child of (n.Plans as Array<Record<string, unknown>> | undefined) ?? []) walk(child);
    };
    walk((row['QUERY PLAN'] as Array<{ Plan: Record<string, unknown> }>)[0].Plan);
    return nodes;
  } finally {
    await runner.rollbackTransaction();
    await runner.release();
  }
}

/** The per-state partial indexes: reading one of them whole reads only the rows of its state. */
export const STATE_INDEX = /\bidx_webhook_inbox_(pending|due|dead|processed)\b/;

/**
 * The steps of a plan that read the inbox (or an index of it) without narrowing to one state:
 * on SQLite a SCAN that is not of a per-state index (`SCAN t`, or a walk of the primary key or
 * body_key index: every row); on PostgreSQL a Seq Scan of the table, or an index scan with no
 * Index Cond on an index that is not per-state. SEARCH (SQLite) and Index Cond (PostgreSQL)
 * seek by key, whichever index.
 */
export function wholeReads(kind: string, plan: string[]): string[] {
  return kind === 'sqlite'
    ? plan.filter((line) => /^SCAN /.test(line) && !/^SCAN json_each\b/.test(line) && !STATE_INDEX.test(line))
    : plan.filter(
        (node) =>
          /^Seq Scan webhook_inbox\b/.test(node) ||
          (/^(Index|Index Only|Bitmap Index) Scan\b/.test(node) &&
            !node.endsWith('(Index Cond)') &&
            !STATE_INDEX.test(node)),
      );
}
