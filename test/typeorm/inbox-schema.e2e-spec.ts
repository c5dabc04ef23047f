/**
 * The inbox's tables from the package alone: a Nest app of its own on SQLite with `synchronize:
 * true` and the package's entities (the development setup) records, processes, counts, drains
 * and prunes through PartnerTypeOrmInboxStore and PartnerInboxOperator; the package's migrations
 * make the same tables on a fresh database, and leave a reference-app database (made by the app's
 * own migrations, holding rows) exactly as it was.
 */
import { Module, type INestApplicationContext } from '@nestjs/common';
import { Test } from '@nestjs/testing';
import { getDataSourceToken, TypeOrmModule } from '@nestjs/typeorm';
import type { InboxEventInput } from '@partner-payments/nestjs/inbox';
import {
  PartnerInboxOperator,
  PartnerPaymentsTypeOrmModule,
  PartnerTypeOrmInboxStore,
  PartnerUnitOfWork,
  generateInboxKeyEntry,
  partnerTypeOrmEntities,
} from '@partner-payments/typeorm';
import { DataSource, type DataSourceOptions } from 'typeorm';
import { buildDataSourceOptions } from '../../apps/reference-app/src/app-data-source.util';
import { parseDatabaseUrl } from '../../apps/reference-app/src/database/database-url.util';
import { MIGRATIONS } from '../../apps/reference-app/src/database/migrations';
import { RELEASED_MIGRATIONS } from './upgrade-rows.fixture';
import { testInboxKeyRing } from '../setup/app.fixture';
import { DATABASE_KINDS, databaseUrlFor } from '../setup/test-database.fixture';
import { packageLocationFor, openPackageDatabase } from './typeorm-database.fixture';

jest.setTimeout(60_000);

const t0 = new Date('2026-11-22T07:00:00.000Z');
const event = (eventId: string, receivedAt = t0): InboxEventInput => ({
  eventId,
  name: 'payout.completed',
  envelope: 'flat',
  rawBody: JSON.stringify({ event: 'payout.completed', data: { event_id: eventId } }),
  receivedAt,
});

/** Each index of `table` as the database prints its definition (columns in order, WHERE), sorted. */
async function indexDefinitions(ds: DataSource, table: string): Promise<string[]> {
  const rows: Array<{ def: string | null }> =
    ds.options.type === 'postgres'
      ? await ds.query('SELECT indexdef AS def FROM pg_indexes WHERE tablename = $1', [table])
      : await ds.query("SELECT sql AS def FROM sqlite_master WHERE type = 'index' AND tbl_name = ?", [table]);
  // SQLite's automatic primary-key index has no SQL.
  return rows.flatMap((r) => (r.def ? [r.def] : [])).sort();
}

/** The inbox's tables, their columns and indexes, and every row, in a stable order. */
async function inboxSnapshot(ds: DataSource) {
  const runner = ds.createQueryRunner();
  try {
    const tables: Record<string, { columns: string[]; indexes: string[]; rows: unknown[] }> = {};
    for (const name of ['webhook_inbox', 'webhook_inbox_tombstones']) {
      const table = await runner.getTable(name);
      tables[name] = {
        columns: (table?.columns ?? []).map((c) => `${c.name}:${c.type}:${c.isNullable}`).sort(),
        indexes: await indexDefinitions(ds, name),
        rows: await ds.query(`SELECT * FROM ${name} ORDER BY event_key`),
      };
    }
    return tables;
  } finally {
    await runner.release();
  }
}

describe('the inbox on SQLite with synchronize: true and the package entities', () => {
  let app: INestApplicationContext;
  let cleanup: () => void;

  beforeAll(async () => {
    const found = await packageLocationFor('sqlite', 'inbox-sync');
    cleanup = found.cleanup;
    @Module({
      imports: [
        TypeOrmModule.forRoot({
          type: 'better-sqlite3',
          database: found.location,
          entities: [...partnerTypeOrmEntities],
          synchronize: true,
        }),
        PartnerPaymentsTypeOrmModule.forRoot({ inbox: { sealingKeys: generateInboxKeyEntry('dev') } }),
      ],
    })
    class DevelopmentModule {}
    const ref = await Test.createTestingModule({ imports: [DevelopmentModule] }).compile();
    app = await ref.createNestApplication({ logger: false }).init();
  });
  afterAll(async () => {
    await app?.close();
    cleanup?.();
  });

  it('records, processes, counts, lists dead letters, prunes and keeps a pruned key a duplicate', async () => {
    const store = app.get(PartnerTypeOrmInboxStore);
    const operator = app.get(PartnerInboxOperator);
    expect(await store.recordBatch([event('sync-1'), event('sync-2'), event('sync-1')])).toEqual([
      'new',
      'new',
      'duplicate',
    ]);
    const outcomes = await store.processBatch(['sync-1'], async (id) => `handled ${id}`);
    expect(outcomes).toEqual([{ eventId: 'sync-1', outcome: 'processed', value: 'handled sync-1' }]);
    expect(await operator.countByState()).toEqual({ pending: 1, processed: 1 });
    expect((await operator.backlog(new Date(t0.getTime() + 5_000))).oldestAgeSeconds.pending).toBe(5);
    expect(await operator.checkWrites()).toEqual({ ok: true });
    expect(await operator.deadLetters()).toEqual([]);
    // Past the retention (30 days by default): the processed entry goes, its key stays.
    const pruned = await operator.prune({ now: new Date(Date.now() + 31 * 86_400_000) });
    expect(pruned).toEqual({ ran: true, deleted: 1, batches: 1 });
    expect(await store.record(event('sync-1'))).toBe('duplicate');
    expect(await store.get('sync-1')).toBeNull();
    expect((await store.get('sync-2'))?.rawBody).toBe(event('sync-2').rawBody);
    const dataSource = app.get<DataSource>(getDataSourceToken());
    expect(await dataSource.query('SELECT COUNT(*) AS n FROM webhook_inbox_tombstones')).toEqual([{ n: 1 }]);
  });
});

describe.each(DATABASE_KINDS)('the package migrations and the inbox (%s)', (kind) => {
  it('create the inbox tables and indexes on a fresh database, where the store works', async () => {
    const db = await openPackageDatabase(kind, 'inbox-fresh');
    try {
      const { webhook_inbox: inbox } = await inboxSnapshot(db.dataSource);
      // Columns in order, and the partial ones holding one state each, on either database's print.
      const expected: Array<[string, RegExp]> = [
        ['idx_webhook_inbox_body_key', /\("?body_key"?\)$/],
        ['idx_webhook_inbox_dead', /\("?received_at"?, "?event_key"?\) WHERE .*state.*'dead'/],
        ['idx_webhook_inbox_due', /\("?next_attempt_at"?\) WHERE .*state.*'failed'/],
        ['idx_webhook_inbox_pending', /\("?received_at"?, "?event_key"?\) WHERE .*state.*'pending'/],
        ['idx_webhook_inbox_processed', /\("?processed_at"?\) WHERE .*state.*'processed'/],
      ];
      const named = inbox.indexes.filter((d) => d.includes('idx_webhook_inbox_'));
      expect(named).toHaveLength(expected.length);
      for (const [name, shape] of expected)
        expect(named.find((d) => d.includes(`${name} `) || d.includes(`"${name}"`))).toMatch(shape);
      const store = new PartnerTypeOrmInboxStore(new PartnerUnitOfWork(db.dataSource), testInboxKeyRing());
      expect(await store.record(event('fresh-1'))).toBe('new');
      await store.processBatch(['fresh-1'], async () => undefined);
      expect(await store.countByState()).toEqual({ processed: 1 });
    } finally {
      await db.close();
    }
  });

  it('leave a reference-app database made by its own migrations, rows and all, as it was', async () => {
    const { url, cleanup } = await databaseUrlFor(kind, 'inbox-upgrade');
    const options = buildDataSourceOptions(parseDatabaseUrl(url));
    const before = new DataSource({
      ...options,
      // The schema of a released reference-app database: the inbox's tables made by the app's own migrations.
      migrations: RELEASED_MIGRATIONS,
    } as DataSourceOptions);
    const after = new DataSource({ ...options, migrations: MIGRATIONS } as DataSourceOptions);
    try {
      await before.initialize();
      await before.runMigrations();
      const store = new PartnerTypeOrmInboxStore(new PartnerUnitOfWork(before), testInboxKeyRing());
      for (const id of ['old-pending', 'old-processed', 'old-failed']) await store.record(event(id));
      await store.processBatch(['old-processed'], async () => undefined);
      await store.markFailed('old-failed', 'handler failed');
      await before.query(
        `INSERT INTO webhook_inbox_tombstones (event_key, processed_at) VALUES ('${'a'.repeat(64)}', NULL)`,
      );
      const was = await inboxSnapshot(before);
      await before.destroy();

      await after.initialize();
      const ran = await after.runMigrations();
      expect(ran.map((m) => m.name)).toContain('PartnerWebhookInbox1765200000000');
      expect(await inboxSnapshot(after)).toEqual(was);
      const upgraded = new PartnerTypeOrmInboxStore(new PartnerUnitOfWork(after), testInboxKeyRing());
      expect(await upgraded.countByState()).toEqual({ pending: 1, processed: 1, failed: 1 });
      expect((await upgraded.get('old-pending'))?.rawBody).toBe(event('old-pending').rawBody);
    } finally {
      for (const ds of [before, after]) if (ds.isInitialized) await ds.destroy();
      cleanup();
    }
  });
});
