/**
 * The inbox has one partial index per state (migration 1764700000000), so a delivery is
 * in one state index instead of three. A partial index serves only a statement whose WHERE names
 * its state with `=`; a statement written another way (`state IN (...)`, `state <> ...`) would read
 * the whole table, processed rows included, and nothing else would notice. This runs the app's
 * own inbox statements (store, drain, counts, metrics, dead letters, retention), records every
 * statement that filters webhook_inbox by state as the driver received it, and asks each
 * database's planner how it would run it: none may scan the table.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from 'pg';
import type { DataSource } from 'typeorm';
import {
  InboxStateIndexes1764700000000,
  prebuildConcurrentlySql,
} from '../../../apps/reference-app/src/database/migrations/1764700000000-inbox-state-indexes.migration';
import { testInboxKeyRing } from '../../setup/app.fixture';
import { DATABASE_KINDS, openTestDatabase, type TestDatabase } from '../../setup/test-database.fixture';
import { PartnerTypeOrmInboxStore } from '@partner-payments/typeorm';
import { InboxDeadLetters } from '../../../libs/partner-payments-typeorm/src/inbox/inbox-dead-letters.store';
import { InboxMaintenanceStore } from '../../../libs/partner-payments-typeorm/src/inbox/at-rest/inbox-maintenance.store';
import { readInboxBacklog } from '../../../libs/partner-payments-typeorm/src/inbox/inbox-backlog.util';

import {
  Captured,
  BY_STATE,
  captureSqlite,
  capturePostgres,
  sqlitePlan,
  postgresPlan,
  wholeReads,
} from './query-plans.fixture';

jest.setTimeout(60_000);

/** This migration's up or down alone, in a transaction of its own, as the migration runner does. */
/** One step of the migration as TypeORM runs it (`transaction = false`: it opens its own). */
async function migrationStep(dataSource: DataSource, step: 'up' | 'down'): Promise<void> {
  const runner = dataSource.createQueryRunner();
  try {
    await new InboxStateIndexes1764700000000()[step](runner);
  } finally {
    await runner.release();
  }
}

/** The inbox's named indexes before migration 1764700000000: body_key and three (state, ...) ones. */
const BEFORE_MIGRATION = [
  'idx_webhook_inbox_body_key',
  'idx_webhook_inbox_due',
  'idx_webhook_inbox_pending',
  'idx_webhook_inbox_processed',
];

describe.each(DATABASE_KINDS)('inbox statements by state use the per-state indexes (%s)', (kind) => {
  let db: TestDatabase;
  beforeAll(async () => {
    db = await openTestDatabase(kind, 'inboxidx');
  });
  afterAll(async () => db?.close());

  it('no statement that reads the inbox by state scans the table', async () => {
    const capture = kind === 'sqlite' ? captureSqlite(db.dataSource) : capturePostgres();
    const t0 = new Date('2026-11-27T03:00:00.000Z');
    const later = new Date(t0.getTime() + 3_600_000);
    try {
      const keys = testInboxKeyRing();
      const store = new PartnerTypeOrmInboxStore(db.uow, keys, {
        retry: { maxAttempts: 2, baseDelayMs: 1000, maxDelayMs: 1000 },
        clock: () => t0,
      });
      const input = (eventId: string) => ({
        eventId,
        name: 'user.created',
        envelope: 'flat' as const,
        rawBody: JSON.stringify({ event: 'user.created', data: { event_id: eventId } }),
        receivedAt: t0,
      });
      for (const id of ['ix-pending', 'ix-failed', 'ix-dead', 'ix-done']) await store.record(input(id));
      await store.markFailed('ix-failed', 'boom');
      await store.markFailed('ix-dead', 'boom');
      await store.markFailed('ix-dead', 'boom');
      await store.processBatch(['ix-done'], async () => undefined);
      expect(await store.countByState()).toEqual({ pending: 1, failed: 1, dead: 1, processed: 1 });
      expect((await store.pending({ now: later })).map((e) => e.eventId).sort()).toEqual([
        'ix-failed',
        'ix-pending',
      ]);
      expect((await readInboxBacklog(db.uow, later)).counts).toEqual({ pending: 1, failed: 1, dead: 1 });
      const dead = new InboxDeadLetters(db.uow, () => later);
      expect((await dead.list(10)).map((e) => e.eventId)).toEqual(['ix-dead']);
      expect(await new InboxMaintenanceStore(db.uow, keys).pruneProcessed(later, 10)).toBe(1);
      const drained = await store.claimDue({ now: later }, async (entry) => entry.eventId);
      expect(drained.map((o) => o.eventId).sort()).toEqual(['ix-failed', 'ix-pending']);
      expect(await dead.requeue(['ix-dead'])).toBe(1);
    } finally {
      capture.stop();
    }

    const byState = new Map<string, Captured>();
    for (const c of capture.captured) if (BY_STATE.test(c.sql)) byState.set(c.sql, c);
    // The flow above reaches at least: counts, the OR read, the oldest pending and failed, the dead
    // list, the requeue, the prune, the two claimDue reads.
    expect(byState.size).toBeGreaterThanOrEqual(8);
    const scans: string[] = [];
    for (const c of byState.values()) {
      const plan =
        kind === 'sqlite' ? await sqlitePlan(db.dataSource, c) : await postgresPlan(db.dataSource, c);
      if (wholeReads(kind, plan).length > 0) scans.push(`${c.sql}\n  -> ${plan.join(' | ')}`);
    }
    expect(scans).toEqual([]);
  });

  it('the migration reverts to the (state, ...) indexes and applies again', async () => {
    const indexes = async (): Promise<Record<string, string>> => {
      const rows: Array<{ name: string; sql: string }> =
        kind === 'sqlite'
          ? await db.dataSource.query(
              "SELECT name, sql FROM sqlite_master WHERE type = 'index' AND tbl_name = 'webhook_inbox' AND sql IS NOT NULL",
            )
          : await db.dataSource.query(
              "SELECT indexname AS name, indexdef AS sql FROM pg_indexes WHERE tablename = 'webhook_inbox' AND indexname LIKE 'idx_%'",
            );
      return Object.fromEntries(rows.map((r) => [r.name, r.sql.replace(/"/g, '')]));
    };
    const applied = await indexes();
    // One partial index per state; dead is new (it had none before the migration).
    expect(Object.keys(applied).sort()).toEqual([...BEFORE_MIGRATION, 'idx_webhook_inbox_dead'].sort());
    expect(applied.idx_webhook_inbox_pending).toMatch(
      // SQLite keeps the text as written; PostgreSQL prints ((state)::text = 'pending'::text).
      /\(received_at, event_key\) WHERE \(*state\)?(::text)? = 'pending'/,
    );
    await migrationStep(db.dataSource, 'down');
    const reverted = await indexes();
    expect(Object.keys(reverted).sort()).toEqual(BEFORE_MIGRATION);
    expect(reverted.idx_webhook_inbox_pending).toMatch(/\(state, received_at, event_key\)$/);
    expect(reverted.idx_webhook_inbox_due).toMatch(/\(state, next_attempt_at\)$/);
    expect(reverted.idx_webhook_inbox_processed).toMatch(/\(state, processed_at\)$/);
    await migrationStep(db.dataSource, 'up');
    expect(await indexes()).toEqual(applied);
  });

  // PostgreSQL only: the migration builds under `<name>_new` and renames there (SQLite cannot rename).
  (kind === 'postgres' ? it : it.skip)(
    'uses the indexes an operator built beforehand with the documented statements, rebuilds a UNIQUE one',
    async () => {
      const readme = readFileSync(join(__dirname, '../../../docs/reference-app/persistence.md'), 'utf8');
      const statements = readme
        .split('\n')
        .map((line) => line.trim())
        .filter((line) => line.startsWith('CREATE INDEX CONCURRENTLY'))
        .map((line) => line.replace(/;$/, ''));
      expect(statements).toEqual(prebuildConcurrentlySql());
      const oids = async (): Promise<Record<string, number>> => {
        const rows: Array<{ name: string; oid: number }> = await db.dataSource.query(
          "SELECT c.relname AS name, c.oid::int AS oid FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid WHERE i.indrelid = 'webhook_inbox'::regclass",
        );
        return Object.fromEntries(rows.map((r) => [r.name, r.oid]));
      };
      // Empty: the UNIQUE index below could not be built over entries processed at the same instant.
      await db.dataSource.query('DELETE FROM webhook_inbox');
      await migrationStep(db.dataSource, 'down');
      // What the operator runs on the live database (CONCURRENTLY: outside any transaction).
      for (const sql of statements.slice(0, 3)) await db.dataSource.query(sql);
      // The fourth built UNIQUE, otherwise the same: kept, it would refuse two entries processed at
      // the same instant. The migration must build its own.
      await db.dataSource.query(statements[3].replace('CREATE INDEX', 'CREATE UNIQUE INDEX'));
      const before = await oids();
      await migrationStep(db.dataSource, 'up');
      const after = await oids();
      // Renamed, not rebuilt: the same index objects under their final names.
      expect(after.idx_webhook_inbox_pending).toBe(before.idx_webhook_inbox_pending_new);
      expect(after.idx_webhook_inbox_due).toBe(before.idx_webhook_inbox_due_new);
      expect(after.idx_webhook_inbox_dead).toBe(before.idx_webhook_inbox_dead_new);
      expect(after.idx_webhook_inbox_processed).not.toBe(before.idx_webhook_inbox_processed_new);
      expect(Object.keys(after).filter((name) => name.endsWith('_new'))).toEqual([]);
      const [processed] = await db.dataSource.query(
        "SELECT indexdef FROM pg_indexes WHERE indexname = 'idx_webhook_inbox_processed'",
      );
      expect(processed.indexdef).toMatch(
        /^CREATE INDEX .*\(processed_at\) WHERE \(\(state\)::text = 'processed'::text\)$/,
      );
    },
  );

  // PostgreSQL only: replicas of the old version keep writing the inbox while this migrates.
  (kind === 'postgres' ? it : it.skip)(
    'builds CONCURRENTLY while a session holds the table, gives way to it, and swaps in on the next start',
    async () => {
      const oids = async (): Promise<Record<string, number>> => {
        const rows: Array<{ name: string; oid: number; valid: boolean }> = await db.dataSource.query(
          "SELECT c.relname AS name, c.oid::int AS oid, i.indisvalid AS valid FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid WHERE i.indrelid = 'webhook_inbox'::regclass",
        );
        for (const r of rows) expect([r.name, r.valid]).toEqual([r.name, true]);
        return Object.fromEntries(rows.map((r) => [r.name, r.oid]));
      };
      await migrationStep(db.dataSource, 'down');
      // An old replica in the middle of a transaction that has read the inbox (ACCESS SHARE held).
      const other = new Client({ connectionString: db.url });
      await other.connect();
      const saved = { ...InboxStateIndexes1764700000000 };
      Object.assign(InboxStateIndexes1764700000000, {
        LOCK_TIMEOUT_MS: 100,
        LOCK_ATTEMPTS: 3,
        LOCK_RETRY_PAUSE_MS: 20,
      });
      try {
        await other.query('BEGIN');
        await other.query('SELECT COUNT(*) FROM webhook_inbox');
        // The builds need no lock that session conflicts with; the swap waits 100 ms at a time.
        await expect(migrationStep(db.dataSource, 'up')).rejects.toThrow(
          /stayed locked by other sessions through 3 attempts of 100 ms.*start again/,
        );
        // The old replica's session was never blocked: it goes on writing in the same transaction.
        await other.query("UPDATE webhook_inbox SET attempts = attempts WHERE state = 'pending'");
        await other.query('COMMIT');
        const built = await oids();
        expect(
          Object.keys(built)
            .filter((n) => n.endsWith('_new'))
            .sort(),
        ).toEqual([
          'idx_webhook_inbox_dead_new',
          'idx_webhook_inbox_due_new',
          'idx_webhook_inbox_pending_new',
          'idx_webhook_inbox_processed_new',
        ]);
        // The next start swaps the built indexes in (renamed: the same objects), builds nothing.
        await migrationStep(db.dataSource, 'up');
        const swapped = await oids();
        for (const name of ['pending', 'due', 'dead', 'processed'])
          expect(swapped[`idx_webhook_inbox_${name}`]).toBe(built[`idx_webhook_inbox_${name}_new`]);
        expect(Object.keys(swapped).filter((n) => n.endsWith('_new'))).toEqual([]);
        // A start that stopped after the swap, before the migration was recorded: nothing to do.
        await migrationStep(db.dataSource, 'up');
        expect(await oids()).toEqual(swapped);
      } finally {
        Object.assign(InboxStateIndexes1764700000000, {
          LOCK_TIMEOUT_MS: saved.LOCK_TIMEOUT_MS,
          LOCK_ATTEMPTS: saved.LOCK_ATTEMPTS,
          LOCK_RETRY_PAUSE_MS: saved.LOCK_RETRY_PAUSE_MS,
        });
        await other.query('ROLLBACK').catch(() => undefined);
        await other.end();
      }
    },
  );

  // PostgreSQL only: an operator's prebuild (docs/reference-app/persistence.md, Upgrading) still running when the app starts.
  (kind === 'postgres' ? it : it.skip)(
    "waits for an index build in progress (an operator's prebuild) and uses what it built",
    async () => {
      await migrationStep(db.dataSource, 'down');
      const operator = new Client({ connectionString: db.url });
      const reader = new Client({ connectionString: db.url });
      await Promise.all([operator.connect(), reader.connect()]);
      try {
        // A snapshot older than the build: CONCURRENTLY cannot finish before it ends, so the
        // build is certainly still running when the migration starts.
        await reader.query('BEGIN ISOLATION LEVEL REPEATABLE READ');
        await reader.query('SELECT 1');
        const processedSql = prebuildConcurrentlySql()[3];
        expect(processedSql).toContain('"idx_webhook_inbox_processed_new"');
        const building = operator.query(processedSql);
        const waiting = async (): Promise<number> => {
          for (;;) {
            const rows: Array<{ oid: number }> = await db.dataSource.query(
              "SELECT p.index_relid::int AS oid FROM pg_stat_progress_create_index p WHERE p.relid = 'webhook_inbox'::regclass AND p.phase LIKE 'waiting for old snapshots%'",
            );
            if (rows[0]) return rows[0].oid;
            await new Promise((resolve) => setTimeout(resolve, 5));
          }
        };
        // The build fails rather than hangs the test if something is wrong with it.
        const operatorOid = await Promise.race([waiting(), building.then(() => -1)]);
        expect(operatorOid).toBeGreaterThan(0);
        let migrated = false;
        const migrating = migrationStep(db.dataSource, 'up').then(() => (migrated = true));
        await new Promise((resolve) => setTimeout(resolve, 300));
        expect(migrated).toBe(false); // waiting for the build, not building its own
        await reader.query('COMMIT');
        await building;
        await migrating;
        const [built] = await db.dataSource.query(
          "SELECT c.oid::int AS oid FROM pg_class c WHERE c.relname = 'idx_webhook_inbox_processed'",
        );
        // Renamed into place: the operator's index, not one built again after dropping it.
        expect(built.oid).toBe(operatorOid);
        const [{ n: leftovers }] = await db.dataSource.query(
          "SELECT COUNT(*)::int AS n FROM pg_class WHERE relname LIKE 'idx_webhook_inbox_%_new'",
        );
        expect(leftovers).toBe(0);
      } finally {
        await reader.end();
        await operator.end();
      }
    },
    60_000,
  );

  it.each([
    "SELECT state, COUNT(*) AS n FROM webhook_inbox WHERE state IN ('pending', 'failed') GROUP BY state",
    "SELECT event_key FROM webhook_inbox WHERE state IN ('pending', 'failed') ORDER BY event_key LIMIT 10",
    "SELECT event_key FROM webhook_inbox WHERE state <> 'processed' ORDER BY event_key LIMIT 10",
  ])('would catch a statement that reads every row: %s', async (sql) => {
    const c = { sql, params: [] };
    const plan =
      kind === 'sqlite' ? await sqlitePlan(db.dataSource, c) : await postgresPlan(db.dataSource, c);
    expect(wholeReads(kind, plan)).not.toEqual([]);
  });
});
