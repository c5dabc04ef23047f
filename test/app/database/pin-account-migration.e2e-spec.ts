/**
 * The version pin's key at rest: never PARTNER_CLIENT_ID (half of the /auth pair, spec 4.1) in
 * plain text. A database an earlier version wrote (the client id as the key, PARTNER_CLIENT_UUID
 * unset) is converted in place at start and keeps its pin: the app finds it pinned, calls no
 * upgrade, and no row holds the id. On a SQLite file and on PostgreSQL.
 */
import type { PartnerSandbox } from '@partner-payments/testing';
import { partnerVersionPinKey } from '@partner-payments/typeorm';
import { DataSource } from 'typeorm';
import { appRequest, startTestApp, startTestSandbox } from '../../setup/app.fixture';
import { DATABASE_KINDS, databaseUrlFor } from '../../setup/test-database.fixture';
import { seedPlainClientIdPin } from './pin-seed.fixture';

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
    await seedPlainClientIdPin(kind, url, clientId, pinnedAt);

    const running = await startTestApp(url, { PARTNER_CLIENT_UUID: undefined }, sandbox);
    try {
      const state = await appRequest(running).get('/versioning').expect(200);
      // Found at start: pinned when the earlier version pinned it, not pinned again now.
      expect(state.body).toMatchObject({ pinned: '2026-04-14', pinnedAt: pinnedAt.toISOString() });
      const rows: Array<{ account: string }> = await running.app
        .get(DataSource)
        .query('SELECT account FROM api_version_pins');
      expect(rows).toEqual([{ account: partnerVersionPinKey(clientId) }]);
      expect(JSON.stringify(rows)).not.toContain(clientId);
    } finally {
      await running.close();
      cleanup();
    }
  });
});
