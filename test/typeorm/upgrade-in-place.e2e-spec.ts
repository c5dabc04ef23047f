/**
 * An existing reference-app database upgrades in place: the schema the released migrations made
 * (everything up to the package's job-lock migration), with rows in every table, then the current
 * migration list (the app's and the package's) run on it as the app runs them at start. Every row
 * is still there afterwards, in its table or in the package table it moved to, on a SQLite file
 * and on PostgreSQL.
 */
import { DataSource, type DataSourceOptions } from 'typeorm';
import { buildDataSourceOptions, openDataSource } from '../../apps/reference-app/src/app-data-source.util';
import { parseDatabaseUrl } from '../../apps/reference-app/src/database/database-url.util';
import { MIGRATIONS } from '../../apps/reference-app/src/database/migrations';
import { DATABASE_KINDS, databaseUrlFor } from '../setup/test-database.fixture';
import {
  MOVED_TABLES,
  RELEASED_MIGRATIONS,
  seedEveryTable,
  snapshot,
  tablesOf,
  type TableRows,
} from './upgrade-rows.fixture';

jest.setTimeout(90_000);

describe.each(DATABASE_KINDS)('upgrading a released reference-app database in place (%s)', (kind) => {
  it('keeps every row of every table', async () => {
    const { url, cleanup } = await databaseUrlFor(kind, 'upgrade-in-place');
    const db = parseDatabaseUrl(url);
    const opened: DataSource[] = [];
    try {
      const released = RELEASED_MIGRATIONS;
      expect(released.length).toBeLessThan(MIGRATIONS.length); // the current list adds to it
      const before = new DataSource({
        ...buildDataSourceOptions(db),
        migrations: released,
      } as DataSourceOptions);
      opened.push(await before.initialize());
      await before.runMigrations();
      const tables = await tablesOf(before);
      // Every table the released schema has (the migrations table aside) gets rows.
      expect(tables.length).toBeGreaterThanOrEqual(12);
      await seedEveryTable(before, tables);
      const seeded: TableRows = await snapshot(before, tables);
      for (const table of tables) expect({ table, rows: seeded[table].length }).toEqual({ table, rows: 4 });
      await before.destroy();

      // The app's own start: every pending migration, under its lock.
      const after = await openDataSource(db);
      opened.push(after);
      const now = await tablesOf(after);
      const upgraded = await snapshot(after, now);
      for (const table of tables) {
        const moved = MOVED_TABLES[table];
        if (moved) {
          expect(now).not.toContain(table);
          expect({ table, rows: moved.carried(upgraded[moved.to] ?? []) }).toEqual({
            table,
            rows: moved.carried(seeded[table]),
          });
          continue;
        }
        // Same table: every old row with every old column as it was (new columns may be added).
        const keep = (rows: Record<string, unknown>[]) =>
          rows.map((r) => Object.fromEntries(Object.keys(seeded[table][0]).map((c) => [c, r[c]])));
        expect({ table, rows: keep(upgraded[table] ?? []) }).toEqual({ table, rows: seeded[table] });
      }
    } finally {
      for (const ds of opened) if (ds.isInitialized) await ds.destroy();
      cleanup();
    }
  });
});
