import { createHash, randomUUID } from 'node:crypto';
import { Client } from 'pg';
import { DataSource, type DataSourceOptions } from 'typeorm';
import { buildDataSourceOptions, openDataSource } from '../../../apps/reference-app/src/app-data-source.util';
import {
  parseDatabaseUrl,
  type ParsedDatabaseUrl,
} from '../../../apps/reference-app/src/database/database-url.util';
import { MIGRATIONS } from '../../../apps/reference-app/src/database/migrations';
import { InboxEventKey1764300000000 } from '../../../apps/reference-app/src/database/migrations/1764300000000-inbox-event-key.migration';
import { InboxStateIndexes1764700000000 } from '../../../apps/reference-app/src/database/migrations/1764700000000-inbox-state-indexes.migration';
import { PayoutRequestMemo1764800000000 } from '../../../apps/reference-app/src/database/migrations/1764800000000-payout-request-memo.migration';
import { placeholders, timestampParam } from '@partner-payments/typeorm/sql';
import {
  partnerJobLockKey,
  partnerPayoutFingerprint,
  PartnerPayoutRequestEntity,
  PartnerTypeOrmInboxStore,
  PartnerUnitOfWork,
} from '@partner-payments/typeorm';
import { InboxMaintenanceStore } from '../../../libs/partner-payments-typeorm/src/inbox/at-rest/inbox-maintenance.store';
import { testInboxKeyRing } from '../../setup/app.fixture';
import { DATABASE_KINDS, databaseUrlFor } from '../../setup/test-database.fixture';

// Boots real databases; jest.config.js's per-project testTimeout is not applied by Jest.
jest.setTimeout(30_000);

/**
 * A connection to `db` that knows only the migrations before `migration`: run its migrations and
 * the schema is as it was before `migration` (the app's own openDataSource then migrates on).
 */
async function schemaBefore(
  db: ParsedDatabaseUrl,
  migration: (typeof MIGRATIONS)[number],
): Promise<DataSource> {
  const dataSource = new DataSource({
    ...buildDataSourceOptions(db),
    migrations: MIGRATIONS.slice(0, MIGRATIONS.indexOf(migration)),
  } as DataSourceOptions);
  return dataSource.initialize();
}

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

describe('the inbox index migration and a replica of the older version starting meanwhile (PostgreSQL)', () => {
  // The older version waits for the migrations lock in pg_advisory_lock, holding a snapshot that
  // CREATE INDEX CONCURRENTLY (migration 1764700000000) waits for. Unless the lock and the build
  // are one session, PostgreSQL cannot see the cycle and both wait for ever (review of 85da00b).
  it('neither hangs: PostgreSQL ends one of the two with a deadlock, the loser starts again', async () => {
    const { url } = await databaseUrlFor('postgres', 'migrate_cic');
    const parsed = parseDatabaseUrl(url);
    const before = await schemaBefore(parsed, InboxStateIndexes1764700000000);
    const older = new Client({ connectionString: url });
    await older.connect();
    const opened: DataSource[] = [];
    let starting: Promise<void> = Promise.resolve();
    try {
      await before.runMigrations();
      // Enough rows that the four builds take a while: the older replica is waiting before they end.
      await before.query(
        `INSERT INTO webhook_inbox (event_key, event_id, event_name, envelope, received_at, state, processed_at)
         SELECT md5(g::text), 'evt_' || g, 'user.created', 'flat', now(), 'processed', now()
         FROM generate_series(1, 300000) g`,
      );
      const key = partnerJobLockKey('schema-migrations');
      starting = openDataSource(parsed).then((ds) => void opened.push(ds));
      // Once the new version holds the migrations lock, the older one asks for it as it does.
      for (;;) {
        const [held] = await before.query(
          "SELECT COUNT(*)::int AS n FROM pg_locks l JOIN pg_database d ON d.oid = l.database WHERE l.locktype = 'advisory' AND l.granted AND d.datname = current_database()",
        );
        if (held.n > 0) break;
        await new Promise((resolve) => setTimeout(resolve, 5));
      }
      const [{ pid: olderPid }] = (await older.query('SELECT pg_backend_pid() AS pid')).rows;
      const olderWait = older.query('SELECT pg_advisory_lock($1::bigint)', [key]);
      const settled = Promise.allSettled([starting, olderWait]);
      // The cycle is there: the older replica waits for the lock while a build waits for its snapshot.
      let cycle = false;
      const done = settled.then(() => true);
      while (!cycle && !(await Promise.race([done, new Promise((r) => setTimeout(() => r(false), 5))]))) {
        const [{ olderWaits, buildWaits }] = await before.query(
          `SELECT (SELECT COUNT(*) FROM pg_locks WHERE locktype = 'advisory' AND NOT granted AND pid = $1)::int AS "olderWaits",
                  (SELECT COUNT(*) FROM pg_stat_progress_create_index WHERE relid = 'webhook_inbox'::regclass AND phase LIKE 'waiting for old snapshots%')::int AS "buildWaits"`,
          [olderPid],
        );
        cycle = olderWaits > 0 && buildWaits > 0;
      }
      expect(cycle).toBe(true);
      const [started, waited] = await settled;
      const outcome = (r: PromiseSettledResult<unknown>) =>
        r.status === 'fulfilled'
          ? 'ok'
          : /deadlock detected/.test(String(r.reason))
            ? 'deadlock'
            : String(r.reason);
      // PostgreSQL ends exactly one of the two: whichever ran its deadlock check first.
      expect([
        ['ok', 'deadlock'],
        ['deadlock', 'ok'],
      ]).toContainEqual([outcome(started), outcome(waited)]);
      if (waited.status === 'fulfilled') await older.query('SELECT pg_advisory_unlock($1::bigint)', [key]);
      // A start that lost is started again (an orchestrator restarts it) and finishes the job.
      if (started.status === 'rejected') opened.push(await openDataSource(parsed));
      const indexes: Array<{ name: string }> = await opened[0].query(
        "SELECT indexname AS name FROM pg_indexes WHERE tablename = 'webhook_inbox' AND indexname LIKE 'idx_%' ORDER BY 1",
      );
      expect(indexes.map((i) => i.name)).toEqual([
        'idx_webhook_inbox_body_key',
        'idx_webhook_inbox_dead',
        'idx_webhook_inbox_due',
        'idx_webhook_inbox_pending',
        'idx_webhook_inbox_processed',
      ]);
      expect(await opened[0].showMigrations()).toBe(false);
    } finally {
      // Ending the older replica's session ends any wait it is part of, so the start settles.
      await older.end();
      await starting.catch(() => undefined);
      for (const ds of [...opened, before]) if (ds.isInitialized) await ds.destroy();
    }
  }, 60_000);
});

// The inbox is rebuilt keyed on a digest of the id; existing rows keep everything.
describe.each(DATABASE_KINDS)('the inbox migration from the previous schema (%s)', (kind) => {
  it('copies every row (across batches) with its key, state and body; old ids stay duplicates', async () => {
    const { url, cleanup } = await databaseUrlFor(kind, 'migrate-inbox');
    const parsed = parseDatabaseUrl(url);
    // The schema as it was before the inbox migration (later migrations build on its table).
    const before = await schemaBefore(parsed, InboxEventKey1764300000000);
    let after: DataSource | null = null;
    try {
      await before.runMigrations();
      const t0 = new Date('2026-11-20T10:00:00.000Z');
      const at = (ms: number) => timestampParam(kind, new Date(t0.getTime() + ms));
      const p = placeholders(kind, 10).join(', ');
      const insert = (row: unknown[]) =>
        before.query(
          `INSERT INTO webhook_inbox (event_id, event_name, envelope, raw_body, received_at, state, attempts, last_error, processed_at, next_attempt_at) VALUES (${p})`,
          row,
        );
      await insert([
        'evt_done',
        'payout.completed',
        'flat',
        '{"a":1}',
        at(0),
        'processed',
        1,
        null,
        at(5),
        null,
      ]);
      await insert([
        'evt_failed',
        'user.updated',
        'flat',
        '{"b":2}',
        at(1),
        'failed',
        2,
        'boom',
        null,
        at(60_000),
      ]);
      await insert([
        'evt "q" \\',
        'payout.status_changed',
        'v2',
        '{"c":3}',
        at(2),
        'pending',
        0,
        null,
        null,
        null,
      ]);
      for (let i = 0; i < 600; i += 1) {
        await insert([
          `bulk_${String(i).padStart(4, '0')}`,
          'user.created',
          'flat',
          `{"i":${i}}`,
          at(3),
          'pending',
          0,
          null,
          null,
          null,
        ]);
      }
      await before.destroy();

      after = await openDataSource(parsed);
      expect(await after.showMigrations()).toBe(false);
      const store = new PartnerTypeOrmInboxStore(new PartnerUnitOfWork(after), testInboxKeyRing());
      expect(await store.get('evt_done')).toMatchObject({
        name: 'payout.completed',
        envelope: 'flat',
        rawBody: '{"a":1}',
        state: 'processed',
        attempts: 1,
        processedAt: new Date(t0.getTime() + 5),
      });
      expect(await store.get('evt_failed')).toMatchObject({
        state: 'failed',
        attempts: 2,
        lastError: 'boom',
        nextAttemptAt: new Date(t0.getTime() + 60_000),
      });
      expect(await store.get('evt "q" \\')).toMatchObject({ envelope: 'v2', rawBody: '{"c":3}' });
      expect((await store.get('bulk_0599'))?.rawBody).toBe('{"i":599}');
      expect(await store.countByState()).toEqual({ processed: 1, failed: 1, pending: 601 });
      const input = { name: 'x', envelope: 'flat' as const, rawBody: '{}', receivedAt: t0 };
      expect(await store.record({ ...input, eventId: 'evt_done' })).toBe('duplicate');
      expect(await store.record({ ...input, eventId: 'bulk_0000' })).toBe('duplicate');
      expect(await store.record({ ...input, eventId: `long_${'y'.repeat(5000)}` })).toBe('new');
      // Copied bodies are plain text until the app's start seals them (the migration has no keys).
      const maintenance = new InboxMaintenanceStore(new PartnerUnitOfWork(after), testInboxKeyRing());
      let resealed = 0;
      for (
        let batch = await maintenance.resealBatch(250);
        batch.read > 0;
        batch = await maintenance.resealBatch(250)
      )
        resealed += batch.resealed;
      expect(resealed).toBe(603);
      const plain: Array<{ n: string | number }> = await after.query(
        'SELECT COUNT(*) AS n FROM webhook_inbox WHERE raw_body IS NOT NULL OR sealed_body IS NULL',
      );
      expect(Number(plain[0].n)).toBe(0);
      expect((await store.get('bulk_0599'))?.rawBody).toBe('{"i":599}');
    } finally {
      if (before.isInitialized) await before.destroy();
      if (after?.isInitialized) await after.destroy();
      cleanup();
    }
  });
});

// extra_info.memo (evidence §6 [T1 REVISION-DOCS §4]): payout_requests gains a nullable memo column.
describe.each(DATABASE_KINDS)('the payout request memo migration on a database with rows (%s)', (kind) => {
  it('keeps every request as it was, without a memo, its body and fingerprint unchanged; it reverts', async () => {
    const { url, cleanup } = await databaseUrlFor(kind, 'migrate-memo');
    const parsed = parseDatabaseUrl(url);
    const before = await schemaBefore(parsed, PayoutRequestMemo1764800000000);
    let after: DataSource | null = null;
    try {
      await before.runMigrations();
      const at = new Date('2026-11-20T10:00:00.000Z');
      const p = placeholders(kind, 13).join(', ');
      // The fingerprint as the previous version computed it, before memos existed.
      const oldFingerprint = (b: string[]) => createHash('sha256').update(JSON.stringify(b)).digest('hex');
      const va = randomUUID();
      const recipient = randomUUID();
      const rows = Array.from({ length: 300 }, (_, i) => {
        const body = [va, recipient, `${i + 1}.00`, 'USD'];
        const state = i % 3 === 0 ? 'pending' : i % 3 === 1 ? 'created' : 'rejected';
        return { key: randomUUID(), body, state, payoutId: state === 'created' ? randomUUID() : null };
      });
      for (const r of rows)
        await before.query(
          `INSERT INTO payout_requests (idempotency_key, fingerprint, virtual_account_id, recipient_id, amount, currency, state, payout_id, last_error, attempts, next_attempt_at, created_at, updated_at) VALUES (${p})`,
          [
            r.key,
            oldFingerprint(r.body),
            ...r.body,
            r.state,
            r.payoutId,
            r.state === 'rejected' ? 'refused' : null,
            r.state === 'pending' ? 2 : 0,
            null,
            timestampParam(kind, at),
            timestampParam(kind, at),
          ],
        );
      await before.destroy();

      after = await openDataSource(parsed);
      expect(await after.showMigrations()).toBe(false);
      const uow = new PartnerUnitOfWork(after);
      // Now in the package's table (PayoutRequestsToPackage1765300000000 moved them).
      const stored = await uow.run((m) => m.find(PartnerPayoutRequestEntity));
      expect(stored).toHaveLength(rows.length);
      const byKey = new Map(stored.map((s) => [s.idempotencyKey, s]));
      for (const r of rows) {
        const row = byKey.get(r.key)!;
        expect(row).toMatchObject({
          state: r.state,
          payoutId: r.payoutId,
          amount: r.body[2],
          attempts: r.state === 'pending' ? 2 : 0,
          memo: null,
          createdAt: at,
        });
        // The re-drive re-sends what the previous version sent, and the caller's retry with the
        // same body is that request (its fingerprint unchanged), not the 422 of another body.
        const body = { recipient_id: row.recipientId, amount: row.amount, currency: row.currency };
        expect(partnerPayoutFingerprint({ virtualAccountId: row.virtualAccountId, body })).toBe(
          row.fingerprint,
        );
      }
      const table = async (ds: DataSource, name = 'payout_requests') => {
        const runner = ds.createQueryRunner();
        try {
          return await runner.getTable(name);
        } finally {
          await runner.release();
        }
      };
      const migrated = await table(after, 'partner_payout_requests');
      expect(migrated?.indices.map((i) => i.name)).toContain('idx_partner_payout_requests_state_created');
      expect(migrated?.columns.find((c) => c.name === 'memo')).toMatchObject({ isNullable: true });

      // The column holds a memo from now on, and the migration reverts (the column dropped, rows kept).
      await uow.run((m) =>
        m.update(PartnerPayoutRequestEntity, { idempotencyKey: rows[0].key }, { memo: 'x' }),
      );
      expect(
        (await uow.run((m) => m.findOneByOrFail(PartnerPayoutRequestEntity, { idempotencyKey: rows[0].key })))
          .memo,
      ).toBe('x');
      // Back to before the memo migration: the later ones first.
      for (let n = MIGRATIONS.length - MIGRATIONS.indexOf(PayoutRequestMemo1764800000000); n > 0; n--)
        await after.undoLastMigration({ transaction: 'each' });
      expect((await table(after))?.columns.map((c) => c.name)).not.toContain('memo');
      const count: Array<{ n: string | number }> = await after.query(
        'SELECT COUNT(*) AS n FROM payout_requests',
      );
      expect(Number(count[0].n)).toBe(rows.length);
      await after.runMigrations({ transaction: 'each' });
      expect(await after.showMigrations()).toBe(false);
    } finally {
      if (before.isInitialized) await before.destroy();
      if (after?.isInitialized) await after.destroy();
      cleanup();
    }
  });
});
