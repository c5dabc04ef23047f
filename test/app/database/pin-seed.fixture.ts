/**
 * A database as the version before PinAccountDigest1765000000000 left it: its schema, and a pin
 * row keyed by the plain client id (PARTNER_CLIENT_UUID unset). Shared by the migration suite and
 * the counted reliability suite.
 */
import { DataSource, type DataSourceOptions } from 'typeorm';
import { buildDataSourceOptions } from '../../../apps/reference-app/src/app-data-source.util';
import {
  parseDatabaseUrl,
  type DatabaseKind,
} from '../../../apps/reference-app/src/database/database-url.util';
import { MIGRATIONS } from '../../../apps/reference-app/src/database/migrations';
import { PinAccountDigest1765000000000 } from '../../../apps/reference-app/src/database/migrations/1765000000000-pin-account-digest.migration';
import { placeholders, timestampParam } from '@partner-payments/typeorm/sql';

export async function seedPlainClientIdPin(
  kind: DatabaseKind,
  url: string,
  clientId: string,
  pinnedAt: Date,
): Promise<void> {
  const before = await new DataSource({
    ...buildDataSourceOptions(parseDatabaseUrl(url)),
    migrations: MIGRATIONS.slice(0, MIGRATIONS.indexOf(PinAccountDigest1765000000000)),
  } as DataSourceOptions).initialize();
  try {
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
  } finally {
    await before.destroy();
  }
}
