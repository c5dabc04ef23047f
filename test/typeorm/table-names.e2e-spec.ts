/**
 * The package's SQL names its tables (`webhook_inbox`, `webhook_inbox_tombstones`, `job_locks`)
 * in the connection's current schema. A user's DataSource that maps the package's entities
 * elsewhere (an `entityPrefix`, a naming strategy that renames tables, a `schema` the connection's
 * search_path does not lead to) is refused at boot, naming `dataSource`, instead of failing at
 * the first delivery; a schema the search_path leads to works.
 */
import { Module } from '@nestjs/common';
import { Test } from '@nestjs/testing';
import { TypeOrmModule, type TypeOrmModuleOptions } from '@nestjs/typeorm';
import type { InboxEventInput } from '@partner-payments/nestjs/inbox';
import {
  PartnerPaymentsTypeOrmModule,
  PartnerTypeOrmInboxStore,
  generateInboxKeyEntry,
  partnerTypeOrmEntities,
  partnerTypeOrmMigrations,
} from '@partner-payments/typeorm';
import { DataSource, DefaultNamingStrategy } from 'typeorm';
import { packageLocationFor } from './typeorm-database.fixture';

jest.setTimeout(60_000);

const inbox = { sealingKeys: generateInboxKeyEntry('k1') };

/** Boots a Nest app on `database` with the inbox; answers the app or the boot's error. */
async function boot(database: TypeOrmModuleOptions) {
  @Module({
    imports: [
      TypeOrmModule.forRoot({ entities: [...partnerTypeOrmEntities], synchronize: true, ...database }),
      PartnerPaymentsTypeOrmModule.forRoot({ inbox }),
    ],
  })
  class UserModule {}
  const ref = await Test.createTestingModule({ imports: [UserModule] }).compile();
  return ref.createNestApplication({ logger: false }).init();
}

const event = (eventId: string): InboxEventInput => ({
  eventId,
  name: 'payout.completed',
  envelope: 'flat',
  rawBody: JSON.stringify({ event: 'payout.completed', data: { event_id: eventId } }),
  receivedAt: new Date(),
});

class PrefixedColumns extends DefaultNamingStrategy {
  override columnName(propertyName: string, customName: string, prefixes: string[]): string {
    return `c_${super.columnName(propertyName, customName, prefixes)}`;
  }
}

class PluralTables extends DefaultNamingStrategy {
  override tableName(targetName: string, userSpecifiedName: string | undefined): string {
    return `${super.tableName(targetName, userSpecifiedName)}s`;
  }
}

describe('a DataSource that maps the package tables elsewhere', () => {
  const cleanups: Array<() => void> = [];
  afterAll(() => cleanups.forEach((c) => c()));

  async function sqlite(prefix: string): Promise<string> {
    const found = await packageLocationFor('sqlite', prefix);
    cleanups.push(found.cleanup);
    return found.location;
  }

  /** A fresh PostgreSQL database holding an empty schema `payments`. */
  async function postgresWithSchema(prefix: string): Promise<string> {
    const found = await packageLocationFor('postgres', prefix);
    cleanups.push(found.cleanup);
    const admin = new DataSource({ type: 'postgres', url: found.location });
    await admin.initialize();
    await admin.query('CREATE SCHEMA payments');
    await admin.destroy();
    return found.location;
  }

  it('is refused at boot on an entityPrefix, naming dataSource and the table', async () => {
    const database = await sqlite('prefix');
    await expect(boot({ type: 'better-sqlite3', database, entityPrefix: 'app_' })).rejects.toThrow(
      /@partner-payments\/typeorm: dataSource maps PartnerJobLockEntity to app_job_locks, not job_locks/,
    );
  });

  it('is refused at boot on a naming strategy that renames tables', async () => {
    const database = await sqlite('naming');
    await expect(
      boot({ type: 'better-sqlite3', database, namingStrategy: new PluralTables() }),
    ).rejects.toThrow(/dataSource maps PartnerJobLockEntity to job_lockss, not job_locks/);
  });

  it('is refused at boot on a naming strategy that renames the columns named in the entities', async () => {
    const database = await sqlite('columns');
    await expect(
      // The package's migrations (synchronize would stop at the partial indexes' WHERE state = ...).
      boot({
        type: 'better-sqlite3',
        database,
        namingStrategy: new PrefixedColumns(),
        synchronize: false,
        migrations: [...partnerTypeOrmMigrations],
        migrationsRun: true,
      }),
    ).rejects.toThrow(/dataSource maps PartnerJobLockEntity\.name to the column c_name, not name/);
  });

  it('is refused at boot on PostgreSQL with a schema the search_path does not lead to', async () => {
    const url = await postgresWithSchema('schema-off-path');
    await expect(boot({ type: 'postgres', url, schema: 'payments' })).rejects.toThrow(
      /dataSource maps PartnerJobLockEntity to payments\.job_locks, but the connection's current schema is public/,
    );
  });

  it('works on PostgreSQL with a schema the search_path leads to', async () => {
    const url = await postgresWithSchema('schema-on-path');
    const app = await boot({
      type: 'postgres',
      url,
      schema: 'payments',
      extra: { options: '-c search_path=payments' },
    });
    try {
      expect(await app.get(PartnerTypeOrmInboxStore).recordBatch([event('s-1')])).toEqual(['new']);
    } finally {
      await app.close();
    }
  });
});
