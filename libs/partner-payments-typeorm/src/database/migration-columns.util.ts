import type { QueryRunner, TableColumnOptions } from 'typeorm';

/**
 * The type of the package's timestamp columns: timestamptz on PostgreSQL (an instant, whatever
 * the server's time zone), `datetime` (UTC text, as TypeORM writes Dates) on SQLite.
 */
export function timestampColumnType(queryRunner: QueryRunner): 'timestamptz' | 'datetime' {
  return queryRunner.connection.options.type === 'postgres' ? 'timestamptz' : 'datetime';
}

/** A varchar(length) column, NOT NULL unless `isNullable`. */
export function varcharColumn(name: string, length: number, isNullable = false): TableColumnOptions {
  return { name, type: 'varchar', length: String(length), isNullable };
}
