/**
 * The version pin's table on upgrade: a reference-app database made by the app's own migrations
 * (before the package kept the pin), holding pin rows, then the current migration list run on it
 * as the app runs it at start. api_version_pins is the package's table under the same name and
 * shape, so its migration leaves it, rows and all, as it was; PartnerVersionPin then reads the
 * stored pin (restored at boot, nothing called) and the refused target (not asked again). On a
 * fresh database the package's migration makes the same columns. On a SQLite file and on PostgreSQL.
 */
import type { INestApplicationContext } from '@nestjs/common';
import { Test } from '@nestjs/testing';
import { TypeOrmModule } from '@nestjs/typeorm';
import { PartnerPaymentsModule } from '@partner-payments/nestjs';
import { PartnerApiVersionState } from '../../libs/partner-payments/src/http/api-version-state.service';
import {
  PartnerPaymentsTypeOrmModule,
  PartnerVersionPin,
  PartnerVersionPins1765220000000,
  partnerVersionPinKey,
} from '@partner-payments/typeorm';
import { placeholders, timestampParam } from '@partner-payments/typeorm/sql';
import { DataSource, type DataSourceOptions } from 'typeorm';
import { buildDataSourceOptions, openDataSource } from '../../apps/reference-app/src/app-data-source.util';
import { parseDatabaseUrl } from '../../apps/reference-app/src/database/database-url.util';
import { MIGRATIONS } from '../../apps/reference-app/src/database/migrations';
import { DATABASE_KINDS, databaseUrlFor } from '../setup/test-database.fixture';
import { openPackageDatabase } from './typeorm-database.fixture';

jest.setTimeout(90_000);

const VERSION = '2026-04-14';
const PINNED_AT = new Date('2026-11-01T08:00:00.000Z');
const silent = { log: () => undefined, warn: () => undefined, error: () => undefined };

/** The table's columns (name:type:nullable, sorted) and every row, in a stable order. */
async function pinTable(ds: DataSource) {
  const runner = ds.createQueryRunner();
  try {
    const table = await runner.getTable('api_version_pins');
    return {
      columns: (table?.columns ?? []).map((c) => `${c.name}:${c.type}:${c.isNullable}`).sort(),
      rows: await ds.query('SELECT * FROM api_version_pins ORDER BY account'),
    };
  } finally {
    await runner.release();
  }
}

describe.each(DATABASE_KINDS)('the version pin on upgrade (%s)', (kind) => {
  it('keeps the app-made rows; PartnerVersionPin restores the pin and skips the refused target without calling', async () => {
    const { url, cleanup } = await databaseUrlFor(kind, 'version-pin-upgrade');
    const db = parseDatabaseUrl(url);
    let app: INestApplicationContext | undefined;
    try {
      const before = await new DataSource({
        ...buildDataSourceOptions(db),
        migrations: MIGRATIONS.filter((m) => m !== PartnerVersionPins1765220000000),
      } as DataSourceOptions).initialize();
      await before.runMigrations();
      const insert =
        'INSERT INTO api_version_pins (account, configured_version, pinned_version, last_outcome, refused_target, last_error, pinned_at, updated_at) ' +
        `VALUES (${placeholders(kind, 8).join(', ')})`;
      const at = timestampParam(kind, PINNED_AT);
      await before.query(insert, [
        partnerVersionPinKey('client-pinned'),
        VERSION,
        VERSION,
        'pinned',
        null,
        null,
        at,
        at,
      ]);
      await before.query(insert, [
        partnerVersionPinKey('client-refused'),
        VERSION,
        '2026-06-01',
        'refused',
        VERSION,
        'Cannot downgrade',
        at,
        at,
      ]);
      const seeded = await pinTable(before);
      expect(seeded.rows).toHaveLength(2);
      await before.destroy();

      const after = await openDataSource(db);
      try {
        expect(await pinTable(after)).toEqual(seeded);
        const ran: Array<{ name: string }> = await after.query('SELECT name FROM migrations');
        expect(ran.map((r) => r.name)).toContain('PartnerVersionPins1765220000000');
      } finally {
        await after.destroy();
      }

      const boot = async (account: string): Promise<INestApplicationContext> => {
        const ref = await Test.createTestingModule({
          imports: [
            TypeOrmModule.forRoot({ ...buildDataSourceOptions(db), migrationsRun: true }),
            PartnerPaymentsModule.forRoot({
              isGlobal: true,
              // Nothing may be called: a call would fail here (port 9 is closed) and say so.
              baseUrl: 'http://127.0.0.1:9',
              apiKey: 'key',
              clientId: account,
              password: 'password',
              apiVersion: VERSION,
              webhookController: false,
              maxRetries: 0,
              logger: silent,
            }),
            PartnerPaymentsTypeOrmModule.forRoot({
              versionPin: { version: VERSION, account, cron: '0 0 0 1 1 *' },
            }),
          ],
        })
          .setLogger(silent)
          .compile();
        return ref.init();
      };

      app = await boot('client-pinned');
      expect(app.get(PartnerApiVersionState).pinnedVersion).toBe(VERSION);
      expect(await app.get(PartnerVersionPin).pin()).toMatchObject({
        pinned: VERSION,
        pinnedAt: PINNED_AT.toISOString(),
        action: 'already-pinned',
      });
      await app.close();

      app = await boot('client-refused');
      expect(app.get(PartnerApiVersionState).pinnedVersion).toBeNull();
      expect(await app.get(PartnerVersionPin).pin()).toMatchObject({
        refusedTarget: VERSION,
        lastOutcome: 'refused',
        action: 'skipped-refused',
      });
    } finally {
      await app?.close();
      cleanup();
    }
  });

  it('on a fresh database, the package migration makes the columns the app made', async () => {
    const fresh = await openPackageDatabase(kind, 'version-pin-fresh');
    const { url, cleanup } = await databaseUrlFor(kind, 'version-pin-app');
    try {
      const app = await new DataSource({
        ...buildDataSourceOptions(parseDatabaseUrl(url)),
        migrations: MIGRATIONS.filter((m) => m !== PartnerVersionPins1765220000000),
      } as DataSourceOptions).initialize();
      await app.runMigrations();
      const made = (await pinTable(fresh.dataSource)).columns;
      expect(made).toHaveLength(9);
      expect(made).toEqual((await pinTable(app)).columns);
      await app.destroy();
    } finally {
      await fresh.close();
      cleanup();
    }
  });
});
