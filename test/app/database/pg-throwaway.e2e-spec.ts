import { newPgClient } from '../../../scripts/pg-client.util';
import { freshPostgresUrl } from '../../setup/postgres.fixture';

// Boots real servers and databases; jest.config.js's per-project testTimeout is not applied by Jest.
jest.setTimeout(30_000);

describe('throwaway PostgreSQL (globalSetup)', () => {
  it('serves a PostgreSQL 15 database on 127.0.0.1 that accepts writes', async () => {
    const url = await freshPostgresUrl('smoke');
    expect(new URL(url).hostname).toBe('127.0.0.1');
    const client = newPgClient({ connectionString: url });
    await client.connect();
    try {
      const version = await client.query<{ server_version: string }>('SHOW server_version');
      expect(version.rows[0].server_version).toMatch(/^15\./);
      await client.query('CREATE TABLE t (id int primary key)');
      await client.query('INSERT INTO t VALUES (1)');
      const count = await client.query<{ n: string }>('SELECT count(*)::text AS n FROM t');
      expect(count.rows[0].n).toBe('1');
    } finally {
      await client.end();
    }
  });
});
