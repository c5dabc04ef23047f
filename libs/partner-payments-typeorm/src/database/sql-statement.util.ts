import type { DataSource } from 'typeorm';
import { databaseKindOf, timestampParam, type PartnerDatabaseKind } from './sql-dialect.util';

/** The part of better-sqlite3's Database used here. */
interface SqliteConnection {
  readonly inTransaction: boolean;
  prepare(sql: string): {
    readonly reader: boolean;
    all(...params: unknown[]): unknown[];
    run(...params: unknown[]): unknown;
  };
}

/** How often a statement waiting for another flow's SQLite transaction to end looks again. */
const SQLITE_TRANSACTION_POLL_MS = 5;
/** Longest such wait: a statement issued from inside a transaction of the caller's would otherwise wait for ever. */
const SQLITE_TRANSACTION_WAIT_MS = 30_000;

/**
 * Runs the package's own statements, each on its own (autocommit), never as part of a transaction
 * some other code has open.
 *
 * PostgreSQL: a pooled connection per statement (DataSource.query), which is never inside someone
 * else's transaction.
 * SQLite: TypeORM's better-sqlite3 driver has ONE connection, and a statement issued while any
 * async flow of the app has a transaction open on it would silently join that transaction (and
 * vanish on its rollback: a lease believed taken, a run not recorded). So the statement runs on
 * the raw connection, synchronously, at a moment no transaction is open; better-sqlite3 runs it to
 * the end before any other JavaScript, so nothing can begin a transaction in between.
 */
export class PartnerSqlStatements {
  readonly kind: PartnerDatabaseKind;

  constructor(private readonly dataSource: DataSource) {
    const kind = databaseKindOf(dataSource);
    if (!kind) throw new Error(`unsupported TypeORM driver ${String(dataSource.options.type)}`);
    this.kind = kind;
  }

  /** The rows of a statement (its RETURNING rows for a write; none for a write without one). */
  async rows<T>(sql: string, params: unknown[]): Promise<T[]> {
    const values = params.map((v) => (v instanceof Date ? timestampParam(this.kind, v) : v));
    if (this.kind === 'postgres') {
      const raw: unknown = await this.dataSource.query(sql, values);
      // TypeORM answers an UPDATE or DELETE on PostgreSQL as [rows, affectedCount].
      if (!Array.isArray(raw)) return [];
      if (raw.length === 2 && Array.isArray(raw[0]) && typeof raw[1] === 'number') return raw[0] as T[];
      return raw as T[];
    }
    const db = (this.dataSource.driver as unknown as { databaseConnection: SqliteConnection })
      .databaseConnection;
    const deadline = Date.now() + SQLITE_TRANSACTION_WAIT_MS;
    while (db.inTransaction) {
      if (Date.now() > deadline)
        throw new Error(
          `the SQLite connection stayed inside a transaction for ${SQLITE_TRANSACTION_WAIT_MS} ms; job locks must not be used from inside a transaction`,
        );
      await new Promise((resolve) => setTimeout(resolve, SQLITE_TRANSACTION_POLL_MS));
    }
    const statement = db.prepare(sql);
    if (statement.reader) return statement.all(...values) as T[];
    statement.run(...values);
    return [];
  }
}
