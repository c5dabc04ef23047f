import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { DataSource } from 'typeorm';
import { parseDatabaseUrl } from './database-url.util';
import { openDataSource } from '../app-data-source.util';

describe('openDataSource (SQLite file)', () => {
  let dir: string;
  let dataSource: DataSource;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'ref-app-ds-'));
    // A nested directory that does not exist yet: it must be created.
    dataSource = await openDataSource(parseDatabaseUrl(`sqlite:${join(dir, 'nested', 'app.sqlite')}`));
  });

  afterAll(async () => {
    await dataSource?.destroy();
    rmSync(dir, { recursive: true, force: true });
  });

  it('runs the checked-in migrations and creates every table', async () => {
    const rows: Array<{ name: string }> = await dataSource.query(
      "SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name",
    );
    const names = rows.map((r) => r.name);
    for (const table of [
      'webhook_inbox',
      'payouts',
      'partner_payout_requests',
      'partner_users',
      'virtual_accounts',
      'deposits',
      'api_version_pins',
      'job_locks',
    ]) {
      expect(names).toContain(table);
    }
    expect(await dataSource.showMigrations()).toBe(false); // nothing left pending
  });

  it('uses WAL, full sync and a busy timeout', async () => {
    expect((await dataSource.query('PRAGMA journal_mode'))[0].journal_mode).toBe('wal');
    expect((await dataSource.query('PRAGMA synchronous'))[0].synchronous).toBe(2);
    expect((await dataSource.query('PRAGMA busy_timeout'))[0].timeout).toBe(5000);
  });

  it('rejects a second payout row with the same idempotency key but allows many NULL keys', async () => {
    const insert = (id: string, key: string | null) =>
      dataSource.query(
        "INSERT INTO payouts (payout_id, idempotency_key, status, last_source, created_at, updated_at) VALUES (?, ?, 'CREATED', 'create', '2026-01-01 00:00:00.000', '2026-01-01 00:00:00.000')",
        [id, key],
      );
    await insert('p1', null);
    await insert('p2', null);
    await insert('p3', 'k1');
    await expect(insert('p4', 'k1')).rejects.toThrow(/UNIQUE/);
  });
});
