import type { EntityManager } from 'typeorm';
import type { PayoutEntity } from './payout.entity';
import type { DatabaseKind } from '../database/database-url.util';
import { returningRows } from '../database/returning.util';
import { SqlParams } from '../database/sql-params.util';

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

/**
 * Many projection writes in one statement (issue 14: a reconciliation pass changes thousands of
 * payouts; one UPDATE each, in its own round trip, was most of the pass). Each row keeps the
 * projection's optimistic lock: it is written only if still at `readVersion`. Answers the ids
 * written; the others changed since they were read and must be decided again.
 */
export async function writePayoutBatch(
  manager: EntityManager,
  kind: DatabaseKind,
  writes: readonly PayoutWrite[],
): Promise<Set<string>> {
  if (writes.length === 0) return new Set();
  const p = new SqlParams(kind);
  const cast = (type: string) => (kind === 'postgres' ? `::${type}` : '');
  const rows = writes.map(
    (w) =>
      `(${[
        `${p.add(w.next.payoutId)}${cast('varchar')}`,
        `${p.add(w.readVersion)}${cast('integer')}`,
        ...COLUMNS.map(([, type, value]) => `${p.add(value(w.next))}${cast(type)}`),
      ].join(', ')})`,
  );
  const names = ['w_id', 'w_read_version', ...COLUMNS.map(([c]) => `w_${c}`)];
  const sql = `WITH w(${names.join(', ')}) AS (VALUES ${rows.join(', ')})
    UPDATE payouts SET ${COLUMNS.map(([c]) => `${c} = w.w_${c}`).join(', ')}
    FROM w WHERE payouts.payout_id = w.w_id AND payouts.version = w.w_read_version
    RETURNING payouts.payout_id`;
  const written = await returningRows<{ payout_id: string }>(manager, sql, p.values);
  return new Set(written.map((r) => r.payout_id));
}
