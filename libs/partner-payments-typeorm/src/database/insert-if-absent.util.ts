import type { EntityManager } from 'typeorm';
import { placeholders, timestampParam, type PartnerDatabaseKind } from './sql-dialect.util';

/**
 * INSERT ... ON CONFLICT (key) DO NOTHING RETURNING key, on both databases (SQLite >= 3.35).
 * Returns true when this call inserted the row. Unlike catching a unique violation, it does not
 * abort a surrounding PostgreSQL transaction.
 */
export async function insertIfAbsent(
  manager: EntityManager,
  kind: PartnerDatabaseKind,
  table: string,
  key: string,
  values: Record<string, string | number | Date | null>,
): Promise<boolean> {
  const columns = Object.keys(values);
  const params = columns.map((c) => {
    const v = values[c];
    return v instanceof Date ? timestampParam(kind, v) : v;
  });
  const sql =
    `INSERT INTO ${table} (${columns.join(', ')}) VALUES (${placeholders(kind, columns.length).join(', ')}) ` +
    `ON CONFLICT (${key}) DO NOTHING RETURNING ${key}`;
  const rows: unknown[] = await manager.query(sql, params);
  return rows.length === 1;
}
