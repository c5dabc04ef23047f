/**
 * Issue 14: the inbox has one partial index per state (migration 1764700000000), so a delivery is
 * in one state index instead of three. A partial index serves only a statement whose WHERE names
 * its state with `=`; a statement written another way (`state IN (...)`, `state <> ...`) would read
 * the whole table, processed rows included, and nothing else would notice. This runs the app's
 * own inbox statements (store, drain, counts, metrics, dead letters, retention), records every
 * statement that filters webhook_inbox by state as the driver received it, and asks each
 * database's planner how it would run it: none may scan the table.
 */
import { Client } from 'pg';
import type { DataSource } from 'typeorm';
import { InboxStateIndexes1764700000000 } from '../../../apps/reference-app/src/database/migrations/1764700000000-inbox-state-indexes.migration';
import { readInboxStats } from '../../../apps/reference-app/src/observability/inbox-stats.util';
import { InboxDeadLetters } from '../../../apps/reference-app/src/webhooks/inbox-dead-letters.store';
import { InboxMaintenanceStore } from '../../../apps/reference-app/src/webhooks/inbox-maintenance.store';
import { TypeOrmInboxStore } from '../../../apps/reference-app/src/webhooks/typeorm-inbox.store';
import { testInboxKeyRing } from '../../setup/app.fixture';
import { DATABASE_KINDS, openTestDatabase, type TestDatabase } from '../../setup/test-database.fixture';

jest.setTimeout(60_000);

interface Captured {
  sql: string;
  params: unknown[];
}

/** A statement that reads webhook_inbox rows by their state (not one that only sets it). */
const BY_STATE = /\bwebhook_inbox\b[\s\S]*\bWHERE\b[\s\S]*\bstate\b/i;

/** Every statement prepared on the SQLite connection from now on, with the values it ran with. */
function captureSqlite(dataSource: DataSource): { captured: Captured[]; stop(): void } {
  type Stmt = Record<'run' | 'all' | 'get', (...args: unknown[]) => unknown>;
  const db = (dataSource.driver as unknown as { databaseConnection: { prepare(sql: string): Stmt } })
    .databaseConnection;
  const prepare = db.prepare;
  const captured: Captured[] = [];
  db.prepare = function (this: unknown, sql: string) {
    const statement = prepare.call(this, sql);
    for (const method of ['run', 'all', 'get'] as const) {
      const original = statement[method];
      statement[method] = function (this: unknown, ...params: unknown[]) {
        captured.push({ sql, params });
        return original.apply(this, params);
      };
    }
    return statement;
  };
  return { captured, stop: () => (db.prepare = prepare) };
}

/** Every statement any pg client sends from now on (TypeORM's and the named hot-path ones). */
function capturePostgres(): { captured: Captured[]; stop(): void } {
  const proto = Client.prototype as unknown as { query: (...args: unknown[]) => unknown };
  const query = proto.query;
  const captured: Captured[] = [];
  proto.query = function (this: unknown, ...args: unknown[]) {
    const [first, second] = args;
    if (typeof first === 'string') captured.push({ sql: first, params: Array.isArray(second) ? second : [] });
    else if (first && typeof first === 'object' && 'text' in first) {
      const config = first as { text: string; values?: unknown[] };
      captured.push({ sql: config.text, params: config.values ?? [] });
    }
    return query.apply(this, args);
  };
  return { captured, stop: () => (proto.query = query) };
}

/** SQLite: the plan's lines. A line `SCAN <table>` with nothing after it is a full table scan. */
async function sqlitePlan(dataSource: DataSource, c: Captured): Promise<string[]> {
  const db = (
    dataSource.driver as unknown as {
      databaseConnection: { prepare(sql: string): { all(...p: unknown[]): Array<{ detail: string }> } };
    }
  ).databaseConnection;
  return db
    .prepare(`EXPLAIN QUERY PLAN ${c.sql}`)
    .all(...c.params)
    .map((r) => r.detail);
}

/** PostgreSQL: the plan's node types and relations, with sequential scans priced out of reach. */
async function postgresPlan(dataSource: DataSource, c: Captured): Promise<string[]> {
  const runner = dataSource.createQueryRunner();
  try {
    await runner.startTransaction();
    await runner.query('SET LOCAL enable_seqscan = off');
    const [row] = await runner.query(`EXPLAIN (FORMAT JSON) ${c.sql}`, c.params);
    const nodes: string[] = [];
    const walk = (n: Record<string, unknown>) => {
      nodes.push(
        `${String(n['Node Type'])} ${String(n['Relation Name'] ?? '')} ${String(n['Index Name'] ?? '')}`.trim(),
      );
      for (const child of (n.Plans as Array<Record<string, unknown>> | undefined) ?? []) walk(child);
    };
    walk((row['QUERY PLAN'] as Array<{ Plan: Record<string, unknown> }>)[0].Plan);
    return nodes;
  } finally {
    await runner.rollbackTransaction();
    await runner.release();
  }
}

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
      const store = new TypeOrmInboxStore(db.uow, keys, {
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
      expect((await readInboxStats(db.uow, later)).counts).toEqual({ pending: 1, failed: 1, dead: 1 });
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
      const tableScan =
        kind === 'sqlite'
          ? plan.some((line) => /^SCAN \S+$/.test(line))
          : plan.some((node) => /^Seq Scan webhook_inbox/.test(node));
      if (tableScan) scans.push(`${c.sql}\n  -> ${plan.join(' | ')}`);
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
    expect(Object.keys(applied).sort()).toEqual([
      'idx_webhook_inbox_body_key',
      'idx_webhook_inbox_dead',
      'idx_webhook_inbox_due',
      'idx_webhook_inbox_pending',
      'idx_webhook_inbox_processed',
    ]);
    expect(applied.idx_webhook_inbox_pending).toMatch(
      // SQLite keeps the text as written; PostgreSQL prints ((state)::text = 'pending'::text).
      /\(received_at, event_key\) WHERE \(*state\)?(::text)? = 'pending'/,
    );
    const migration = new InboxStateIndexes1764700000000();
    const runner = db.dataSource.createQueryRunner();
    try {
      await migration.down(runner);
    } finally {
      await runner.release();
    }
    const reverted = await indexes();
    expect(Object.keys(reverted).sort()).toEqual([
      'idx_webhook_inbox_body_key',
      'idx_webhook_inbox_due',
      'idx_webhook_inbox_pending',
      'idx_webhook_inbox_processed',
    ]);
    expect(reverted.idx_webhook_inbox_pending).toMatch(/\(state, received_at, event_key\)$/);
    const again = db.dataSource.createQueryRunner();
    try {
      await migration.up(again);
    } finally {
      await again.release();
    }
    expect(await indexes()).toEqual(applied);
  });

  it('would catch a statement written with state IN (...)', async () => {
    const c = {
      sql: "SELECT state, COUNT(*) AS n FROM webhook_inbox WHERE state IN ('pending', 'failed') GROUP BY state",
      params: [],
    };
    const plan =
      kind === 'sqlite' ? await sqlitePlan(db.dataSource, c) : await postgresPlan(db.dataSource, c);
    expect(
      kind === 'sqlite'
        ? plan.some((line) => /^SCAN \S+$/.test(line))
        : plan.some((node) => /^Seq Scan webhook_inbox/.test(node)),
    ).toBe(true);
  });
});
