import type { DatabaseKind } from './database-url.util';

/** `$1, $2` on PostgreSQL, `?, ?` on SQLite, for the few statements written as raw SQL. */
export function placeholders(kind: DatabaseKind, count: number, start = 1): string[] {
  return Array.from({ length: count }, (_, i) => (kind === 'postgres' ? `$${start + i}` : '?'));
}

/**
 * A Date as a raw-SQL parameter: PostgreSQL takes the Date (timestamptz); SQLite stores the UTC
 * text TypeORM itself writes for Date columns ('YYYY-MM-DD HH:MM:SS.SSS'), which sorts in time order.
 */
export function timestampParam(kind: DatabaseKind, date: Date): Date | string {
  return kind === 'postgres' ? date : date.toISOString().replace('T', ' ').replace('Z', '');
}
