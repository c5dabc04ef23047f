import type { Database, Statement } from 'better-sqlite3';
import type { EntityManager } from 'typeorm';
import { type PartnerUnitOfWork } from '../database/unit-of-work.service';
import { timestampParam } from '../database/sql-dialect.util';
import {
  INBOX_COLUMNS,
  SAVEPOINT_SQL,
  storedRow,
  type InboxDueSelection,
  type InboxFailureUpdate,
  type InboxHeldRow,
  type InboxInsertRow,
  type InboxSqlDriver,
  type InboxStoredRow,
  type SavepointStep,
} from './inbox-sql-driver.store';

/**
 * The inbox on SQLite through better-sqlite3's prepared statements. TypeORM's driver
 * has ONE connection, the same one these statements use: every call runs inside the PartnerUnitOfWork's
 * queue, so a statement here never lands in some other flow's open transaction. Statements are
 * synchronous: a batch insert is BEGIN, n inserts, COMMIT (one fsync: WAL, synchronous=FULL) with
 * nothing interleaved. Lists of keys are bound as one JSON array (json_each), so each statement
 * is prepared once whatever the batch size.
 */
export class SqliteInboxDriver implements InboxSqlDriver {
  private readonly statements = new Map<string, Statement>();
  private insertMany: ((rows: readonly InboxInsertRow[]) => boolean[]) | null = null;

  constructor(private readonly uow: PartnerUnitOfWork) {}

  async insertBatch(rows: readonly InboxInsertRow[]): Promise<boolean[]> {
    // A transaction function: BEGIN/COMMIT alone, a savepoint inside an ambient transaction.
    return this.uow.run(async () => this.inserter()(rows));
  }

  async hold(_m: EntityManager, keys: readonly string[]): Promise<Map<string, InboxHeldRow>> {
    const rows = this.statement(
      'SELECT event_key, state, attempts FROM webhook_inbox WHERE event_key IN (SELECT value FROM json_each(?))',
    ).all(JSON.stringify(keys)) as Array<{ event_key: string } & InboxHeldRow>;
    return new Map(rows.map((r) => [r.event_key, { state: r.state, attempts: r.attempts }]));
  }

  async claimDue(_m: EntityManager, due: InboxDueSelection): Promise<InboxStoredRow[]> {
    // Two index-ordered reads that stop at the limit (idx_webhook_inbox_due, _pending): failed
    // entries due again first, then the oldest never processed. One OR query sorted every row.
    const failed = this.statement(
      `SELECT ${INBOX_COLUMNS} FROM webhook_inbox WHERE state = 'failed' AND next_attempt_at <= ? ` +
        'AND event_key NOT IN (SELECT value FROM json_each(?)) ORDER BY next_attempt_at LIMIT ?',
    ).all(timestampParam('sqlite', due.now), JSON.stringify(due.exclude), due.limit) as Array<
      Record<string, unknown>
    >;
    const pending =
      failed.length >= due.limit
        ? []
        : (this.statement(
            `SELECT ${INBOX_COLUMNS} FROM webhook_inbox WHERE state = 'pending' AND received_at <= ? ` +
              'ORDER BY received_at, event_key LIMIT ?',
          ).all(timestampParam('sqlite', due.youngest), due.limit - failed.length) as Array<
            Record<string, unknown>
          >);
    return [...failed, ...pending].map((r) => storedRow(r, sqliteDate));
  }

  async savepoint(_m: EntityManager, step: SavepointStep): Promise<void> {
    for (const sql of SAVEPOINT_SQL[step].split('; ')) this.statement(sql).run();
  }

  async markProcessed(_m: EntityManager, keys: readonly string[], at: Date): Promise<void> {
    if (keys.length === 0) return;
    this.statement(
      "UPDATE webhook_inbox SET state = 'processed', processed_at = ?, next_attempt_at = NULL, " +
        'attempts = attempts + 1 WHERE event_key IN (SELECT value FROM json_each(?))',
    ).run(timestampParam('sqlite', at), JSON.stringify(keys));
  }

  async markFailed(_m: EntityManager, key: string, u: InboxFailureUpdate): Promise<void> {
    this.statement(
      'UPDATE webhook_inbox SET attempts = ?, state = ?, next_attempt_at = ?, last_error = ? WHERE event_key = ?',
    ).run(
      u.attempts,
      u.state,
      u.nextAttemptAt && timestampParam('sqlite', u.nextAttemptAt),
      u.lastError,
      key,
    );
  }

  private inserter(): (rows: readonly InboxInsertRow[]) => boolean[] {
    if (this.insertMany) return this.insertMany;
    const insert = this.statement(
      'INSERT INTO webhook_inbox (event_key, event_id, event_name, envelope, sealed_body, body_key, received_at, ' +
        "state, attempts) SELECT ?, ?, ?, ?, ?, ?, ?, 'pending', 0 " +
        // A pruned event's key outlives its row (InboxMaintenanceStore.pruneProcessed).
        'WHERE NOT EXISTS (SELECT 1 FROM webhook_inbox_tombstones WHERE event_key = ?) ' +
        'ON CONFLICT (event_key) DO NOTHING',
    );
    this.insertMany = this.db.transaction((rows: readonly InboxInsertRow[]) =>
      rows.map(
        (r) =>
          insert.run(
            r.eventKey,
            r.eventId,
            r.eventName,
            r.envelope,
            r.sealedBody,
            r.bodyKey,
            timestampParam('sqlite', r.receivedAt),
            r.eventKey,
          ).changes === 1,
      ),
    );
    return this.insertMany;
  }

  private statement(sql: string): Statement {
    let stmt = this.statements.get(sql);
    if (!stmt) {
      stmt = this.db.prepare(sql);
      this.statements.set(sql, stmt);
    }
    return stmt;
  }

  /** TypeORM's one better-sqlite3 connection (opened by the time the store is used). */
  private get db(): Database {
    return (this.uow.dataSource.driver as unknown as { databaseConnection: Database }).databaseConnection;
  }
}

/** SQLite keeps TypeORM's UTC text 'YYYY-MM-DD HH:MM:SS.SSS' for Date columns. */
function sqliteDate(value: unknown): Date | null {
  return value === null || value === undefined ? null : new Date(`${String(value).replace(' ', 'T')}Z`);
}
