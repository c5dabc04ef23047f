/**
 * The version pin's key at rest: never PARTNER_CLIENT_ID (half of the /auth pair, spec 4.1) in
 * plain text. A database an earlier version wrote (the client id as the key, PARTNER_CLIENT_UUID
 * unset) is converted in place at start and keeps its pin: the app finds it pinned, calls no
 * upgrade, and no row holds the id. On a SQLite file and on PostgreSQL.
 */
import type { PartnerSandbox } from '@partner-payments/testing';
import { DataSource, type DataSourceOptions } from 'typeorm';
import { buildDataSourceOptions } from '../../../apps/reference-app/src/app-data-source.util';
import { parseDatabaseUrl } from '../../../apps/reference-app/src/database/database-url.util';
import { MIGRATIONS } from '../../../apps/reference-app/src/database/migrations';
import { PinAccountDigest1765000000000 } from '../../../apps/reference-app/src/database/migrations/1765000000000-pin-account-digest.migration';
import { placeholders, timestampParam } from '../../../apps/reference-app/src/database/sql-dialect.util';
import { pinAccountKey } from '../../../apps/reference-app/src/versioning/pin-account.util';
import { appRequest, startTestApp, startTestSandbox } from '../../setup/app.fixture';
import { DATABASE_KINDS, databaseUrlFor } from '../../setup/test-database.fixture';

jest.setTimeout(60_000);

describe.each(DATABASE_KINDS)('the version pin keyed by a digest (%s)', (kind) => {
  let sandbox: PartnerSandbox;
  beforeAll(async () => {
    sandbox = await startTestSandbox();
  });
  afterAll(async () => sandbox?.close());

  it('an existing pin keyed by the plain client id is converted in place and kept; no row holds the id', async () => {
    const { url, cleanup } = await databaseUrlFor(kind, 'pin-digest');
    const clientId = sandbox.credentials.clientId;
    const pinnedAt = new Date('2026-11-01T08:00:00.000Z');
    // The schema and the row as the previous version left them.
    const before = await new DataSource({
      ...buildDataSourceOptions(parseDatabaseUrl(url)),
      migrations: MIGRATIONS.slice(0, MIGRATIONS.indexOf(PinAccountDigest1765000000000)),
    } as DataSourceOptions).initialize();
    await before.runMigrations();
    await before.query(
      'INSERT INTO api_version_pins (account, configured_version, pinned_version, last_outcome, pinned_at, updated_at) ' +
        `VALUES (${placeholders(kind, 6).join(', ')})`,
      [
        clientId,
        '2026-04-14',
        '2026-04-14',
        'pinned',
        timestampParam(kind, pinnedAt),
        timestampParam(kind, pinnedAt),
      ],
    );
    await before.destroy();

    const running = await startTestApp(url, { PARTNER_CLIENT_UUID: undefined }, sandbox);
    try {
      const state = await appRequest(running).get('/versioning').expect(200);
      // Found at start: pinned when the earlier version pinned it, not pinned again now.
      expect(state.body).toMatchObject({ pinned: '2026-04-14', pinnedAt: pinnedAt.toISOString() });
      const rows: Array<{ account: string }> = await running.app
        .get(DataSource)
        .query('SELECT account FROM api_version_pins');
      expect(rows).toEqual([{ account: pinAccountKey(clientId) }]);
      expect(JSON.stringify(rows)).not.toContain(clientId);
    } finally {
      await running.close();
      cleanup();
    }
  });
});
