import type { EntityManager } from 'typeorm';
import { BoundedPoolQuery } from './bounded-pool-query.util';
import { pgConnectionOf, pgPoolOf } from '../database/prepared-query.util';
import { type PartnerUnitOfWork } from '../database/unit-of-work.service';
import { DEFAULT_INBOX_RECORD_TIMEOUT_MS } from './inbox.options';
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

type InsertedKey = { event_key: string };

/** Named statements: pg prepares each once per connection. Lists are bound as arrays. */
const SQL = {
  insert: {
    name: 'inbox_insert_batch',
    text:
      'INSERT INTO webhook_inbox (event_key, event_id, event_name, envelope, sealed_body, body_key, received_at, ' +
      "state, attempts) SELECT k, i, n, e, b, bk, r, 'pending', 0 FROM unnest($1::varchar[], $2::text[], " +
      '$3::text[], $4::varchar[], $5::text[], $6::varchar[], $7::timestamptz[]) AS t(k, i, n, e, b, bk, r) ' +
      // A pruned event's key outlives its row (InboxMaintenanceStore.pruneProcessed).
      'WHERE NOT EXISTS (SELECT 1 FROM webhook_inbox_tombstones z WHERE z.event_key = t.k) ' +
      'ON CONFLICT (event_key) DO NOTHING RETURNING event_key',
  },
  hold: {
    name: 'inbox_hold',
    text:
      'SELECT event_key, state, attempts FROM webhook_inbox WHERE event_key = ANY($1::varchar[]) ' +
      'FOR UPDATE SKIP LOCKED',
  },
  claimFailed: {
    name: 'inbox_claim_failed',
    text:
      `SELECT ${INBOX_COLUMNS} FROM webhook_inbox WHERE state = 'failed' AND next_attempt_at <= $1 ` +
      'AND NOT (event_key = ANY($2::varchar[])) ORDER BY next_attempt_at LIMIT $3 FOR UPDATE SKIP LOCKED',
  },
  claimPending: {
    name: 'inbox_claim_pending',
    text:
      `SELECT ${INBOX_COLUMNS} FROM webhook_inbox WHERE state = 'pending' AND received_at <= $1 ` +
      'ORDER BY received_at, event_key LIMIT $2 FOR UPDATE SKIP LOCKED',
  },
  processed: {
    name: 'inbox_mark_processed',
    text:
      "UPDATE webhook_inbox SET state = 'processed', processed_at = $1, next_attempt_at = NULL, " +
      'attempts = attempts + 1 WHERE event_key = ANY($2::varchar[])',
  },
  failed: {
    name: 'inbox_mark_failed',
    text: 'UPDATE webhook_inbox SET attempts = $1, state = $2, next_attempt_at = $3, last_error = $4 WHERE event_key = $5',
  },
} as const;

/**
 * The inbox on PostgreSQL through pg directly, on the connections of TypeORM's pool.
 * A batch of deliveries is ONE multi-row insert-or-ignore (unnest of arrays), a statement of its
 * own: one commit, one WAL flush for the batch. Inside a unit of work the statements run on that
 * transaction's connection. Entries are held with FOR UPDATE SKIP LOCKED, so replicas processing
 * or claiming at once take different entries and never wait for each other.
 *
 * The intake insert (outside a unit of work) is bounded by `recordTimeoutMs` (BoundedPoolQuery):
 * one batch is in flight at a time, so an insert on a connection that went silent would otherwise
 * hold every later delivery until the kernel drops the socket, minutes past the partner's 30 s.
 */
export class PostgresInboxDriver implements InboxSqlDriver {
  private readonly intake: BoundedPoolQuery;

  constructor(
    private readonly uow: PartnerUnitOfWork,
    recordTimeoutMs = DEFAULT_INBOX_RECORD_TIMEOUT_MS,
  ) {
    this.intake = new BoundedPoolQuery(() => pgPoolOf(this.uow.dataSource.manager), recordTimeoutMs);
  }

  async insertBatch(rows: readonly InboxInsertRow[]): Promise<boolean[]> {
    const ambient = this.uow.currentTransaction();
    const insert = {
      ...SQL.insert,
      values: [
        rows.map((r) => r.eventKey),
        rows.map((r) => r.eventId),
        rows.map((r) => r.eventName),
        rows.map((r) => r.envelope),
        rows.map((r) => r.sealedBody),
        rows.map((r) => r.bodyKey),
        rows.map((r) => r.receivedAt),
      ],
    };
    // In a unit of work the statement runs on that transaction's connection, which its owner bounds.
    const keys = ambient
      ? (await pgConnectionOf(ambient).query<InsertedKey>(insert)).rows
      : await this.intake.query<InsertedKey>(insert);
    const inserted = new Set(keys.map((r) => r.event_key));
    return rows.map((r) => inserted.has(r.eventKey));
  }

  async hold(m: EntityManager, keys: readonly string[]): Promise<Map<string, InboxHeldRow>> {
    const result = await pgConnectionOf(m).query<{ event_key: string } & InboxHeldRow>({
      ...SQL.hold,
      values: [keys],
    });
    return new Map(result.rows.map((r) => [r.event_key, { state: r.state, attempts: r.attempts }]));
  }

  async claimDue(m: EntityManager, due: InboxDueSelection): Promise<InboxStoredRow[]> {
    // Two index-ordered reads that stop at the limit (idx_webhook_inbox_due, _pending): failed
    // entries due again first, then the oldest never processed.
    const on = pgConnectionOf(m);
    const failed = await on.query<Record<string, unknown>>({
      ...SQL.claimFailed,
      values: [due.now, due.exclude, due.limit],
    });
    const pending =
      failed.rows.length >= due.limit
        ? []
        : (
            await on.query<Record<string, unknown>>({
              ...SQL.claimPending,
              values: [due.youngest, due.limit - failed.rows.length],
            })
          ).rows;
    return [...failed.rows, ...pending].map((r) => storedRow(r, (v) => (v instanceof Date ? v : null)));
  }

  async savepoint(m: EntityManager, step: SavepointStep): Promise<void> {
    // No parameters: the simple protocol, so 'next' (two statements) is one round trip.
    await pgConnectionOf(m).query(SAVEPOINT_SQL[step]);
  }

  async markProcessed(m: EntityManager, keys: readonly string[], at: Date): Promise<void> {
    if (keys.length === 0) return;
    await pgConnectionOf(m).query({ ...SQL.processed, values: [at, keys] });
  }

  async markFailed(m: EntityManager, key: string, u: InboxFailureUpdate): Promise<void> {
    await pgConnectionOf(m).query({
      ...SQL.failed,
      values: [u.attempts, u.state, u.nextAttemptAt, u.lastError, key],
    });
  }
}
