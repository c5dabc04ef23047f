import type { EntityManager } from 'typeorm';

/**
 * The rows of an `INSERT/UPDATE/DELETE ... RETURNING` statement on either database. TypeORM's
 * `manager.query` answers an UPDATE or DELETE on PostgreSQL as `[rows, affectedCount]` and
 * everything else (and every statement on better-sqlite3) as the rows themselves; rows are
 * objects, never arrays, so the two shapes cannot be confused.
 */
export async function returningRows<T>(manager: EntityManager, sql: string, params: unknown[]): Promise<T[]> {
  const raw: unknown = await manager.query(sql, params);
  if (!Array.isArray(raw)) return [];
  if (raw.length === 2 && Array.isArray(raw[0]) && typeof raw[1] === 'number') return raw[0] as T[];
  return raw as T[];
}
