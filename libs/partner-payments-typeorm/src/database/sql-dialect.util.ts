import type { DataSource } from 'typeorm';

/** The two databases the package supports (TypeORM drivers `postgres` and `better-sqlite3`). */
export type PartnerDatabaseKind = 'postgres' | 'sqlite';

/** The kind of a DataSource, or undefined for a driver the package does not support. */
export function databaseKindOf(dataSource: DataSource): PartnerDatabaseKind | undefined {
  const type = dataSource.options.type;
  if (type === 'postgres') return 'postgres';
  if (type === 'better-sqlite3') return 'sqlite';
  return undefined;
}

/** `$1, $2` on PostgreSQL, `?, ?` on SQLite, for the statements written as raw SQL. */
export function placeholders(kind: PartnerDatabaseKind, count: number, start = 1): string[] {
  return Array.from({ length: count }, (_, i) => (kind === 'postgres' ? `$${start + i}` : '?'));
}

/**
 * A Date as a raw-SQL parameter: PostgreSQL takes the Date (timestamptz); SQLite stores the UTC
 * text TypeORM itself writes for Date columns ('YYYY-MM-DD HH:MM:SS.SSS'), which sorts in time
 * order, so `lease_until < ?` compares instants.
 */
export function timestampParam(kind: PartnerDatabaseKind, date: Date): Date | string {
  return kind === 'postgres' ? date : date.toISOString().replace('T', ' ').replace('Z', '');
}

/** A timestamp column read by raw SQL: a Date from pg, the UTC text above from SQLite. */
export function readTimestamp(value: unknown): Date | null {
  if (value === null || value === undefined) return null;
  if (value instanceof Date) return value;
  const text = String(value);
  return new Date(/[zZ]|[+-]\d\d:?\d\d$/.test(text) ? text : `${text.replace(' ', 'T')}Z`);
}
