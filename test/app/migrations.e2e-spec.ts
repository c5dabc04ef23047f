import type { DataSource } from 'typeorm';
import { openDataSource } from '../../apps/reference-app/src/database/data-source.factory';
import { parseDatabaseUrl } from '../../apps/reference-app/src/database/database-url.parser';
import { databaseUrlFor } from '../setup/test-database.helper';

// Boots real databases; jest.config.js's per-project testTimeout is not applied by Jest.
jest.setTimeout(30_000);

describe('migrations at start (PostgreSQL)', () => {
  it('two replicas starting at once on an empty database both come up, the schema migrated once', async () => {
    const { url } = await databaseUrlFor('postgres', 'migrate');
    const opened: DataSource[] = [];
    try {
      const results = await Promise.allSettled(
        [1, 2, 3].map(async () => {
          const ds = await openDataSource(parseDatabaseUrl(url));
          opened.push(ds);
          return ds;
        }),
      );
      expect(results.map((r) => (r.status === 'rejected' ? String(r.reason) : 'ok'))).toEqual([
        'ok',
        'ok',
        'ok',
      ]);
      const rows: Array<{ n: string }> = await opened[0].query('SELECT COUNT(*) AS n FROM migrations');
      expect(Number(rows[0].n)).toBe(opened[0].migrations.length);
      for (const ds of opened) expect(await ds.showMigrations()).toBe(false);
    } finally {
      for (const ds of opened) if (ds.isInitialized) await ds.destroy();
    }
  });
});
