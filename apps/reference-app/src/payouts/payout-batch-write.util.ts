import type { EntityManager } from 'typeorm';
import type { PayoutEntity } from './payout.entity';
import type { DatabaseKind } from '../database/database-url.util';
import { preparedQuery, returningRows, SqlParams } from '@partner-payments/typeorm/sql';

/** One row's write: what it must become, provided it is still at the version it was read at. */
export interface PayoutWrite {
  readVersion: number;
  next: PayoutEntity;
}

/** The columns a projection write sets (everything an observation can change), with their PostgreSQL types. */
const COLUMNS: Array<[column: string, pgType: string, value: (p: PayoutEntity) => unknown]> = [
  ['status', 'varchar', (p) => p.status],
  ['previous_status', 'varchar', (p) => p.previousStatus],
  ['reference_number', 'varchar', (p) => p.referenceNumber],
  ['error_code', 'varchar', (p) => p.errorCode],
  ['review_reason', 'text', (p) => p.reviewReason],
  ['amount', 'varchar', (p) => p.amount],
  ['currency', 'varchar', (p) => p.currency],
  ['recipient_id', 'varchar', (p) => p.recipientId],
  ['user_id', 'varchar', (p) => p.userId],
  ['virtual_account_id', 'varchar', (p) => p.virtualAccountId],
  ['idempotency_key', 'varchar', (p) => p.idempotencyKey],
  ['last_source', 'varchar', (p) => p.lastSource],
  ['updated_at', 'timestamptz', (p) => p.updatedAt],
  ['version', 'integer', (p) => p.version],
];

const NAMES = ['w_id', 'w_read_version', ...COLUMNS.map(([c]) => `w_${c}`)];
const SET_FROM_W = `UPDATE payouts SET ${COLUMNS.map(([c]) => `${c} = w.w_${c}`).join(', ')}`;
const MATCH_W = `WHERE payouts.payout_id = w.w_id AND payouts.version = w.w_read_version
    RETURNING payouts.payout_id`;

/**
 * PostgreSQL: one statement whatever the number of rows, each column bound as one array and
 * unnested, so it is a named statement parsed and planned once per connection (a VALUES form
 * would bind 16 parameters per row, ~1,600 per page, parsed and planned on every call).
 */
const PG_BATCH_SQL = `${SET_FROM_W}
    FROM unnest(${['varchar', 'integer', ...COLUMNS.map(([, type]) => type)]
      .map((type, i) => `$${i + 1}::${type}[]`)
      .join(', ')}) AS w(${NAMES.join(', ')})
    ${MATCH_W}`;

/**
 * Many projection writes in one statement: a reconciliation pass changes thousands of payouts,
 * and one UPDATE each, in its own round trip, would be most of the pass. Each row keeps the

 * projection's optimistic lock: it is written only if still at `readVersion`. Answers the ids
 * written; the others changed since they were read and must be decided again.
 */
export async function writePayoutBatch(
  manager: EntityManager,
  kind: DatabaseKind,
  writes: readonly PayoutWrite[],
): Promise<Set<string>> {
  if (writes.length === 0) return new Set();
  const written =
    kind === 'postgres'
      ? await preparedQuery(manager, 'payouts_write_batch', PG_BATCH_SQL, [
          writes.map((w) => w.next.payoutId),
          writes.map((w) => w.readVersion),
          ...COLUMNS.map(([, , value]) => writes.map((w) => value(w.next))),
        ])
      : await returningRows<{ payout_id: string }>(manager, ...sqliteBatch(writes));
  return new Set(written.map((r) => r.payout_id as string));
}

/** SQLite (no arrays): the rows as a VALUES list, one parameter per value. */
function sqliteBatch(writes: readonly PayoutWrite[]): [string, unknown[]] {
  const p = new SqlParams('sqlite');
  const rows = writes.map(
    (w) =>
      `(${[p.add(w.next.payoutId), p.add(w.readVersion), ...COLUMNS.map(([, , value]) => p.add(value(w.next)))].join(', ')})`,
  );
  return [
    `WITH w(${NAMES.join(', ')}) AS (VALUES ${rows.join(', ')}) ${SET_FROM_W} FROM w ${MATCH_W}`,
    p.values,
  ];
}
