/**
 * Rows in every table of a database, whatever its schema: upgrade-in-place.e2e-spec.ts fills a
 * released schema and compares what the upgrade kept. Values follow each column's type and
 * length; state columns get the states their code writes.
 */
import type { DataSource, TableColumn } from 'typeorm';
import { MIGRATIONS } from '../../apps/reference-app/src/database/migrations';
import { placeholders, timestampParam, type PartnerDatabaseKind } from '@partner-payments/typeorm/sql';

/** The last migration of the released schema (the package's job locks). */
const RELEASED_UP_TO = 1765100000000;

function timestampOf(migration: (typeof MIGRATIONS)[number]): number {
  const found = /(\d{13})$/.exec(migration.name);
  if (!found) throw new Error(`migration ${migration.name} has no timestamp`);
  return Number(found[1]);
}

/** The migrations that made a released reference-app database: the app's own and the job locks'. */
export const RELEASED_MIGRATIONS = MIGRATIONS.filter((m) => timestampOf(m) <= RELEASED_UP_TO);

export type TableRows = Record<string, Record<string, string | null>[]>;

const ROWS_PER_TABLE = 4;

/** The states each state column holds (no CHECK constraint says so: the code does). */
const STATES: Record<string, string[]> = {
  'webhook_inbox.state': ['pending', 'processed', 'failed', 'dead'],
  'payout_requests.state': ['pending', 'created', 'rejected', 'needs_review'],
  'payouts.status': ['CREATED', 'PENDING', 'COMPLETED', 'FAILED'],
};

/**
 * Tables that moved into a package table on upgrade: where to, and the part of each row both
 * tables carry, as comparable rows (the new table may keep it under other column names).
 */
export const MOVED_TABLES: Record<
  string,
  { to: string; carried: (rows: Record<string, string | null>[]) => Record<string, string | null>[] }
> = {
  // The payout outbox's requests: the package's table has the app's columns, renamed as a whole.
  payout_requests: { to: 'partner_payout_requests', carried: (rows) => rows },
};

function kindOf(ds: DataSource): PartnerDatabaseKind {
  return ds.options.type === 'postgres' ? 'postgres' : 'sqlite';
}

/** The tables of the database, the migrations' bookkeeping aside, sorted. */
export async function tablesOf(ds: DataSource): Promise<string[]> {
  const rows: Array<{ name: string }> =
    kindOf(ds) === 'postgres'
      ? await ds.query(
          "SELECT table_name AS name FROM information_schema.tables WHERE table_schema = current_schema() AND table_type = 'BASE TABLE'",
        )
      : await ds.query("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'");
  return rows
    .map((r) => r.name)
    .filter((n) => n !== 'migrations' && n !== 'typeorm_metadata')
    .sort();
}

function valueFor(kind: PartnerDatabaseKind, table: string, column: TableColumn, i: number): unknown {
  const states = STATES[`${table}.${column.name}`];
  if (states) return states[i % states.length];
  const type = column.type.toLowerCase();
  if (/int|serial/.test(type)) return i + 1;
  if (/bool/.test(type)) return kind === 'postgres' ? i % 2 === 0 : i % 2;
  if (/time|date/.test(type)) return timestampParam(kind, new Date(Date.UTC(2026, 10, 27, 3, i, 7, 250)));
  if (/bytea|blob/.test(type)) return Buffer.from([i, 0, 255]);
  if (/json/.test(type)) return JSON.stringify({ row: i });
  if (/numeric|decimal|real|double|float/.test(type)) return `${i + 1}.25`;
  // Text: the row number last, so a short column keeps what makes each row unique.
  const text = `${table}.${column.name}#${i}`;
  const max = column.length ? Number(column.length) : 0;
  return max > 0 ? text.slice(-max) : text;
}

/** ROWS_PER_TABLE rows in each table, every column filled (generated ids left to the database). */
export async function seedEveryTable(ds: DataSource, tables: string[]): Promise<void> {
  const kind = kindOf(ds);
  const runner = ds.createQueryRunner();
  try {
    for (const name of tables) {
      const table = await runner.getTable(name);
      if (!table) throw new Error(`no table ${name}`);
      const columns = table.columns.filter((c) => !(c.isGenerated && c.generationStrategy === 'increment'));
      const list = columns.map((c) => `"${c.name}"`).join(', ');
      const marks = placeholders(kind, columns.length).join(', ');
      for (let i = 0; i < ROWS_PER_TABLE; i++)
        await ds.query(
          `INSERT INTO "${name}" (${list}) VALUES (${marks})`,
          columns.map((c) => valueFor(kind, name, c, i)),
        );
    }
  } finally {
    await runner.release();
  }
}

function comparable(value: unknown): string | null {
  if (value === null || value === undefined) return null;
  if (value instanceof Date) return value.toISOString();
  if (Buffer.isBuffer(value)) return value.toString('hex');
  return String(value);
}

/** Every row of each table, values as comparable text, rows in a stable order. */
export async function snapshot(ds: DataSource, tables: string[]): Promise<TableRows> {
  const out: TableRows = {};
  for (const table of tables) {
    const rows: Record<string, unknown>[] = await ds.query(`SELECT * FROM "${table}"`);
    out[table] = rows
      .map((r) => Object.fromEntries(Object.entries(r).map(([k, v]) => [k, comparable(v)])))
      .sort((a, b) => JSON.stringify(a).localeCompare(JSON.stringify(b)));
  }
  return out;
}
