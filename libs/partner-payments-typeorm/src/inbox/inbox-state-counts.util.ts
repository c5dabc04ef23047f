import type { InboxEntryState } from '@partner-payments/nestjs/inbox';
import type { EntityManager } from 'typeorm';

/**
 * Entries in each of `states`, in one statement: a COUNT per state with `state = '...'`, so each
 * reads its own partial index (migration 1764700000000). `state IN (...) GROUP BY state` would
 * read the whole table, processed rows included, on both databases. States without entries are
 * left out.
 */
export async function countInboxStates(
  m: EntityManager,
  states: readonly InboxEntryState[],
): Promise<Partial<Record<InboxEntryState, number>>> {
  // The states are the fixed literals of InboxEntryState, never input: written into the SQL.
  const sql = states
    .map((s) => `SELECT '${s}' AS state, COUNT(*) AS n FROM webhook_inbox WHERE state = '${s}'`)
    .join(' UNION ALL ');
  const rows: Array<{ state: InboxEntryState; n: string | number }> = await m.query(sql);
  const counts: Partial<Record<InboxEntryState, number>> = {};
  for (const r of rows) if (Number(r.n) > 0) counts[r.state] = Number(r.n);
  return counts;
}
