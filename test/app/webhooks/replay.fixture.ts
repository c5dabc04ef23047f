/**
 * Replays and stale events at the reference app, over a real socket: an app on one database, its
 * webhook secret, and the reads of what its projections and inbox hold. Shared by the app's
 * webhook suite (assertions) and the counted reliability suite (counts).
 */
import { randomUUID } from 'node:crypto';
import type { PartnerSandbox } from '@partner-payments/testing';
import { DataSource } from 'typeorm';
import type { RunningApp } from '../../../apps/reference-app/src/app-bootstrap.util';
import { inboxEventKey, PartnerInboxOperator } from '@partner-payments/typeorm';
import { placeholders } from '@partner-payments/typeorm/sql';
import { deliverSignedWebhook, eventually, startTestApp, startTestSandbox } from '../../setup/app.fixture';
import { databaseUrlFor } from '../../setup/test-database.fixture';
import type { DatabaseKind } from '../../../apps/reference-app/src/database/database-url.util';

const DAY = 86_400_000;

export interface ReplayWorld {
  kind: DatabaseKind;
  running: RunningApp;
  /** POSTs these exact bytes, signed with the app's secret; the HTTP status. */
  deliver(raw: string): Promise<number>;
  /** The row's status column (partner_users by user_id, virtual_accounts by id); null when absent. */
  status(table: 'partner_users' | 'virtual_accounts', id: string): Promise<string | null>;
  /** The inbox row's state of this event id, null when there is none. */
  inboxState(eventId: string): Promise<string | null>;
  /** Runs the retention job as if `days` had passed; how many entries it deleted. */
  pruneAfter(days: number): Promise<number>;
  /** Raw SQL on the app's own database (its DataSource). */
  query(sql: string, values?: unknown[]): Promise<unknown>;
  close(): Promise<void>;
}

export async function startReplayWorld(kind: DatabaseKind, prefix: string): Promise<ReplayWorld> {
  const sandbox: PartnerSandbox = await startTestSandbox();
  const { url, cleanup } = await databaseUrlFor(kind, prefix);
  const running = await startTestApp(url, {}, sandbox);
  const ds = running.app.get(DataSource);
  const p = (n: number) => placeholders(kind, n);
  const one = async (sql: string, values: unknown[]): Promise<string | null> => {
    const rows: Array<{ v: string | null }> = await ds.query(sql, values);
    return rows[0]?.v ?? null;
  };
  return {
    kind,
    running,
    deliver: async (raw) => (await deliverSignedWebhook(running, raw, sandbox.webhookSecret)).status,
    status: (table, id) =>
      one(
        `SELECT status AS v FROM ${table} WHERE ${table === 'partner_users' ? 'user_id' : 'virtual_account_id'} = ${p(1)[0]}`,
        [id],
      ),
    inboxState: (eventId) =>
      one(`SELECT state AS v FROM webhook_inbox WHERE event_key = ${p(1)[0]}`, [inboxEventKey(eventId)]),
    query: (sql, values) => ds.query(sql, values),
    pruneAfter: async (days) =>
      (await running.app.get(PartnerInboxOperator).prune({ now: new Date(Date.now() + days * DAY) })).deleted,
    close: async () => {
      await running.close();
      await sandbox.close();
      cleanup();
    },
  };
}

/** A flat event's exact bytes, with a fresh event id. */
export const flatEvent = (name: string, data: Record<string, unknown>): string =>
  JSON.stringify({ event: name, data: { event_id: `evt_${randomUUID()}`, ...data } });

export const eventIdOf = (raw: string): string =>
  (JSON.parse(raw) as { data: { event_id: string } }).data.event_id;

/** Waits until `eventId` is processed in the inbox. */
export const processed = (world: ReplayWorld, eventId: string): Promise<true> =>
  eventually(
    async () => ((await world.inboxState(eventId)) === 'processed' ? true : undefined),
    10_000,
    `${eventId} processed`,
  );

export interface ReplayObservation {
  /** Statuses the user held: after the first delivery, after the newer one, after the replay. */
  before: string | null;
  verified: string | null;
  afterReplay: string | null;
  pruned: number;
  replayAnswer: number;
  /** The replay's inbox row after its 2xx (null: recorded as a duplicate, nothing to process). */
  replayStored: string | null;
  /** A genuinely new event for the same user, after the pruning: its status (it must apply). */
  afterNew: string | null;
}

/** A user moved to REVIEW, then VERIFIED, both processed; the REVIEW body's exact bytes. */
async function reviewThenVerified(
  world: ReplayWorld,
): Promise<{ userId: string; review: string; before: string | null; verified: string | null }> {
  const userId = randomUUID();
  const review = flatEvent('user.status_changed', {
    user_id: userId,
    previous_status: 'VERIFYING',
    new_status: 'REVIEW',
  });
  const verified = flatEvent('user.verification.accepted', { user_id: userId });
  await world.deliver(review);
  await processed(world, eventIdOf(review));
  const before = await world.status('partner_users', userId);
  await world.deliver(verified);
  await processed(world, eventIdOf(verified));
  return { userId, review, before, verified: await world.status('partner_users', userId) };
}

/**
 * The user's status once another user's event, delivered after the replay, is processed: anything
 * recorded before it is processed by then.
 */
async function statusAfterSentinel(world: ReplayWorld, userId: string): Promise<string | null> {
  const sentinel = flatEvent('user.status_changed', { user_id: randomUUID(), new_status: 'VERIFYING' });
  await world.deliver(sentinel);
  await processed(world, eventIdOf(sentinel));
  return world.status('partner_users', userId);
}

/**
 * A user moved to REVIEW, then VERIFIED; the retention deletes both entries (processed 41 days
 * "ago"); the first body is replayed byte for byte; then a new event moves the user on.
 */
export async function replayAfterPruning(world: ReplayWorld): Promise<ReplayObservation> {
  const { userId, review, before, verified } = await reviewThenVerified(world);
  const pruned = await world.pruneAfter(41);
  const replayAnswer = await world.deliver(review);
  const replayStored = await world.inboxState(eventIdOf(review));
  const afterReplay = await statusAfterSentinel(world, userId);
  const next = flatEvent('user.status_changed', {
    user_id: userId,
    previous_status: 'VERIFIED',
    new_status: 'ACTIVE',
  });
  await world.deliver(next);
  await processed(world, eventIdOf(next));
  return {
    before,
    verified,
    afterReplay,
    pruned,
    replayAnswer,
    replayStored,
    afterNew: await world.status('partner_users', userId),
  };
}

export interface StaleObservation {
  user: string | null;
  virtualAccount: string | null;
}

/**
 * Two distinct events for one user (and one virtual account), the newer delivered first: the older
 * one (an earlier updated_at) arrives last and must change nothing.
 */
export async function staleAfterNewer(world: ReplayWorld): Promise<StaleObservation> {
  const userId = randomUUID();
  const vaId = randomUUID();
  const newer = '2026-11-20T10:00:00.000Z';
  const older = '2026-11-20 09:00:00.123456+00'; // the partner's PostgreSQL text form (evidence N29)
  const account = (status: string, updatedAt: string) =>
    flatEvent('virtual_account.created', {
      virtual_account_id: vaId,
      user_id: userId,
      status,
      updated_at: updatedAt,
    });
  const sends = [
    flatEvent('user.updated', { user_id: userId, status: 'VERIFIED', updated_at: newer }),
    account('approved', newer),
    flatEvent('user.updated', { user_id: userId, status: 'REVIEW', updated_at: older }),
    account('rfi', older),
  ];
  for (const raw of sends) {
    await world.deliver(raw);
    await processed(world, eventIdOf(raw));
  }
  return {
    user: await world.status('partner_users', userId),
    virtualAccount: await world.status('virtual_accounts', vaId),
  };
}

/**
 * PostgreSQL: the replay arrives while the prune batch that deletes its entry has not committed
 * (a trigger holds the DELETE of that one row for 1.5 s). The replay must wait and then find the
 * tombstone, not the gap between the row's deletion and the tombstone's commit.
 */
export async function replayDuringPrune(world: ReplayWorld): Promise<ReplayObservation> {
  const { userId, review, before, verified } = await reviewThenVerified(world);
  const key = inboxEventKey(eventIdOf(review));
  await world.query(
    'CREATE OR REPLACE FUNCTION test_slow_delete() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN ' +
      `IF OLD.event_key = '${key}' THEN PERFORM pg_sleep(1.5); END IF; RETURN OLD; END $$`,
  );
  await world.query(
    'CREATE TRIGGER test_slow_delete AFTER DELETE ON webhook_inbox FOR EACH ROW EXECUTE FUNCTION test_slow_delete()',
  );
  try {
    const pruning = world.pruneAfter(41);
    await eventually(
      async () => {
        const rows = (await world.query(
          "SELECT 1 FROM pg_stat_activity WHERE state = 'active' AND query LIKE 'DELETE FROM webhook_inbox%'",
        )) as unknown[];
        return rows.length > 0 ? true : undefined;
      },
      5000,
      'the prune batch deleting',
    );
    const replayAnswer = await world.deliver(review);
    const pruned = await pruning;
    const replayStored = await world.inboxState(eventIdOf(review));
    return {
      before,
      verified,
      afterReplay: await statusAfterSentinel(world, userId),
      pruned,
      replayAnswer,
      replayStored,
      afterNew: null,
    };
  } finally {
    await world.query('DROP TRIGGER test_slow_delete ON webhook_inbox');
  }
}
