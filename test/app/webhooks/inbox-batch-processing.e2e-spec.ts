/**
 * Processing after the answer in batches: one transaction per batch, fresh entries with
 * no savepoint each, so a failing handler rolls its batch back and each entry then runs alone (the
 * failing one backed off, the others kept); a batch whose transaction fails as a whole is run
 * again entry by entry the same way; a drained (claimed) batch keeps a savepoint per entry; replicas draining
 * one backlog on PostgreSQL claim different entries (FOR UPDATE SKIP LOCKED) and process each once. The
 * library's PartnerWebhookIngestService and PartnerWebhookProcessingService on the app's
 * PartnerTypeOrmInboxStore, on a real SQLite file and PostgreSQL.
 */
import { AsyncResource } from 'node:async_hooks';
import { EventEmitter2 } from '@nestjs/event-emitter';
import { type PartnerProcessOutcome } from '../../../libs/partner-payments/src/webhooks/partner-webhook-processing.service';
import { buildUserCreated } from '@partner-payments/testing';
import type { DataSource } from 'typeorm';
import { placeholders } from '@partner-payments/typeorm/sql';
import { type PartnerUnitOfWork, PartnerTypeOrmInboxStore } from '@partner-payments/typeorm';
import { CapturingLogger, testInboxKeyRing } from '../../setup/app.fixture';
import { DATABASE_KINDS, openTestDatabase, type TestDatabase } from '../../setup/test-database.fixture';
import {
  webhookServices,
  type PartnerWebhookServices,
} from '../../../libs/partner-payments/src/webhooks/webhook-services.fixture';

jest.setTimeout(120_000);

const t0 = new Date('2026-11-24T08:00:00.000Z');
const body = (eventId: string) =>
  JSON.stringify(buildUserCreated({ event_id: eventId, user_id: `u_${eventId}` }));
/** The inbox input of a user.created delivery received at t0. */
const userCreated = (eventId: string) => ({
  eventId,
  name: 'user.created',
  envelope: 'flat' as const,
  rawBody: body(eventId),
  receivedAt: t0,
});

/**
 * A service as the module builds it, on `uow`. Its user.created handler writes a probe row for the
 * event (in the inbox's transaction), pointing at `refs[eventId]` when given: a deferred foreign
 * key, so a missing parent fails the transaction at COMMIT. `throwFor` makes it throw after writing.
 */
async function serviceOn(
  uow: PartnerUnitOfWork,
  options: {
    throwFor?: string | ((eventId: string) => boolean);
    refs?: Record<string, string>;
    runs?: Map<string, number>;
    clock?: () => Date;
  } = {},
) {
  const store = new PartnerTypeOrmInboxStore(uow, testInboxKeyRing(), { clock: options.clock ?? (() => t0) });
  /** The ids each claimDue was told to exclude (InboxClaimOptions.excludeEventIds). */
  const excluded: string[][] = [];
  const claimDue = store.claimDue.bind(store);
  store.claimDue = (claim, work) => {
    excluded.push([...(claim.excludeEventIds ?? [])]);
    return claimDue(claim, work);
  };
  const processBatchSizes: number[] = [];
  const processBatch = store.processBatch.bind(store);
  store.processBatch = (ids, work) => {
    processBatchSizes.push(ids.length);
    return processBatch(ids, work);
  };
  const emitter = new EventEmitter2();
  emitter.on('user.created', async (event: { eventId: string }) => {
    options.runs?.set(event.eventId, (options.runs.get(event.eventId) ?? 0) + 1);
    const [a, b] = placeholders(uow.kind, 2);
    await uow.run((m) =>
      m.query(`INSERT INTO batch_probe (id, ref) VALUES (${a}, ${b})`, [
        event.eventId,
        options.refs?.[event.eventId] ?? null,
      ]),
    );
    const refuse = options.throwFor;
    if (typeof refuse === 'function' ? refuse(event.eventId) : event.eventId === refuse)
      throw new Error(`handler refused ${event.eventId}`);
  });
  const logger = new CapturingLogger();
  const service = await webhookServices({
    secrets: ['unused: accept() is after the guard'],
    logger,
    inboxStore: store,
    emitter,
  });
  return { service, store, processBatchSizes, logger, excluded };
}

async function probeIds(ds: DataSource): Promise<string[]> {
  const rows: Array<{ id: string }> = await ds.query('SELECT id FROM batch_probe ORDER BY id');
  return rows.map((r) => r.id);
}

/** Accepts every body in the same event-loop turn (one group commit), then waits for processing. */
async function acceptTogether(
  service: PartnerWebhookServices,
  ids: string[],
): Promise<PartnerProcessOutcome[]> {
  const accepted = await Promise.all(ids.map((id) => service.ingest.accept(body(id))));
  return Promise.all(accepted.map((a) => a.processing as Promise<PartnerProcessOutcome>));
}

describe.each(DATABASE_KINDS)('inbox processing in batches (%s)', (kind) => {
  let db: TestDatabase;

  beforeAll(async () => {
    db = await openTestDatabase(kind, 'batchproc');
    const text = kind === 'postgres' ? 'varchar(200)' : 'TEXT';
    await db.dataSource.query(`CREATE TABLE batch_parent (id ${text} PRIMARY KEY)`);
    await db.dataSource.query(
      `CREATE TABLE batch_probe (id ${text} PRIMARY KEY, ref ${text} REFERENCES batch_parent (id) DEFERRABLE INITIALLY DEFERRED)`,
    );
  });
  afterAll(async () => db?.close());
  beforeEach(async () => {
    await db.dataSource.query('DELETE FROM batch_probe');
    await db.dataSource.query('DELETE FROM webhook_inbox');
  });

  it('runs a batch in one transaction: a failing handler rolls it back, then each entry alone: the failing one backed off, the others kept', async () => {
    const ids = ['bp-1', 'bp-2', 'bp-bad', 'bp-4', 'bp-5'];
    const runs = new Map<string, number>();
    const { service, store, processBatchSizes } = await serviceOn(db.uow, { throwFor: 'bp-bad', runs });
    const outcomes = await acceptTogether(service, ids);
    // The batch of 5 (rolled back at bp-bad), then each other entry in a batch of its own; bp-bad
    // is marked failed without running again.
    expect(processBatchSizes).toEqual([5, 1, 1, 1, 1]);
    // Handlers before the failing one ran twice (their first writes rolled back), the rest once.
    expect(Object.fromEntries(runs)).toEqual({ 'bp-1': 2, 'bp-2': 2, 'bp-bad': 1, 'bp-4': 1, 'bp-5': 1 });
    expect(outcomes.map((o) => o.outcome)).toEqual([
      'processed',
      'processed',
      'failed',
      'processed',
      'processed',
    ]);
    expect(await probeIds(db.dataSource)).toEqual(['bp-1', 'bp-2', 'bp-4', 'bp-5']); // bp-bad's write undone
    for (const id of ids.filter((i) => i !== 'bp-bad')) {
      expect(await store.get(id)).toMatchObject({ state: 'processed', attempts: 1, processedAt: t0 });
    }
    const bad = await store.get('bp-bad');
    expect(bad).toMatchObject({ state: 'failed', attempts: 1, lastError: 'handler refused bp-bad' });
    expect(bad?.nextAttemptAt?.toISOString()).toBe(new Date(t0.getTime() + 30_000).toISOString());
  });

  it('runs a batch whose transaction fails as a whole again entry by entry: only the entry that broke it fails', async () => {
    const ids = ['bc-1', 'bc-2', 'bc-breaker', 'bc-4'];
    // bc-breaker's write points at a parent that does not exist: the batch's COMMIT fails.
    const { service, store, processBatchSizes, logger } = await serviceOn(db.uow, {
      refs: { 'bc-breaker': 'missing' },
    });
    const outcomes = await acceptTogether(service, ids);
    expect(processBatchSizes).toEqual([4, 1, 1, 1, 1]);
    expect(outcomes.map((o) => o.outcome)).toEqual(['processed', 'processed', 'failed', 'processed']);
    expect(await probeIds(db.dataSource)).toEqual(['bc-1', 'bc-2', 'bc-4']);
    expect(await store.get('bc-breaker')).toMatchObject({ state: 'failed', attempts: 1 });
    expect(await store.get('bc-4')).toMatchObject({ state: 'processed', attempts: 1 });
    expect(logger.lines.some((l) => l.includes('(bc-breaker) processing failed'))).toBe(true);
  });

  it('runs one entry once when two callers process it in the same turn: the first, the other skipped', async () => {
    const { store } = await serviceOn(db.uow);
    await store.record(userCreated('pt-1'));
    const ran: string[] = [];
    const handle = (caller: string) => async () => {
      ran.push(caller);
      return caller;
    };
    // Both queue before the batch starts, so they would share one processing transaction.
    const outcomes = await Promise.all([
      store.process('pt-1', handle('first')),
      store.process('pt-1', handle('second')),
    ]);
    expect(ran).toEqual(['first']);
    expect(outcomes).toEqual([{ outcome: 'processed', value: 'first' }, { outcome: 'skipped' }]);
    expect(await store.get('pt-1')).toMatchObject({ state: 'processed', attempts: 1 });
  });

  it('records a delivery made inside a unit of work in it alone: one outside in the same turn is kept when it rolls back', async () => {
    const { store } = await serviceOn(db.uow);
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    let inside: unknown;
    let recording!: () => void;
    const insideRecording = new Promise<void>((r) => (recording = r));
    const rolledBack = db.uow.transaction(async () => {
      const recorded = store.record(userCreated('uw-inside'));
      recording();
      inside = await recorded;
      await gate;
      throw new Error('abort');
    });
    // In the same turn as the record inside the unit of work: one group commit would take both.
    await insideRecording;
    const outside = store.record(userCreated('uw-outside'));
    release();
    await expect(rolledBack).rejects.toThrow('abort');
    expect(inside).toBe('new');
    // On SQLite (one writer) it commits once the unit of work has ended.
    expect(await outside).toBe('new');
    expect(await store.get('uw-outside')).toMatchObject({ state: 'pending' });
    expect(await store.get('uw-inside')).toBeNull();
  });

  it('processes an entry inside a unit of work alone in it: one outside is neither held up nor rolled back with it', async () => {
    const { store } = await serviceOn(db.uow);
    for (const eventId of ['pu-out-1', 'pu-in-1', 'pu-in-2', 'pu-out-2'])
      await store.record(userCreated(eventId));
    const value = (v: string) => async () => v;
    // Called from outside any unit of work, whatever context it is called in.
    const fromOutside = AsyncResource.bind((id: string) => store.process(id, value('out')));
    // A batch started outside first: on SQLite it waits for the queue the unit of work holds.
    let opened!: () => void;
    const isOpen = new Promise<void>((r) => (opened = r));
    const outside1 = isOpen.then(() => fromOutside('pu-out-1'));
    const inside1 = db.uow.transaction(async () => {
      opened();
      await Promise.resolve();
      return store.process('pu-in-1', value('in'));
    });
    const hung = new Promise((r) => setTimeout(() => r('hung'), 10_000));
    expect(await Promise.race([Promise.all([outside1, inside1]), hung])).toEqual([
      { outcome: 'processed', value: 'out' },
      { outcome: 'processed', value: 'in' },
    ]);
    // The unit of work's entry first, one outside in the same turn; the unit of work rolls back.
    let outside2!: Promise<unknown>;
    const rolledBack = db.uow.transaction(async () => {
      const inside = store.process('pu-in-2', value('in'));
      outside2 = fromOutside('pu-out-2');
      expect(await inside).toEqual({ outcome: 'processed', value: 'in' });
      throw new Error('abort');
    });
    await expect(rolledBack).rejects.toThrow('abort');
    expect(await outside2).toEqual({ outcome: 'processed', value: 'out' });
    expect(await store.get('pu-out-2')).toMatchObject({ state: 'processed', attempts: 1 });
    expect(await store.get('pu-in-2')).toMatchObject({ state: 'pending', attempts: 0 });
  });

  it('undoes a failing handle inside a unit of work and marks the entry failed there, the rest of it kept', async () => {
    const { store } = await serviceOn(db.uow);
    await store.record(userCreated('pf-1'));
    const [a, b] = placeholders(db.uow.kind, 2);
    const probe = (id: string) =>
      db.uow.run((m) => m.query(`INSERT INTO batch_probe (id, ref) VALUES (${a}, ${b})`, [id, null]));
    const outcome = await db.uow.transaction(async () => {
      await probe('pf-before');
      return store.process('pf-1', async () => {
        await probe('pf-handler');
        throw new Error('handler refused pf-1');
      });
    });
    expect(outcome).toMatchObject({ outcome: 'failed', error: 'handler refused pf-1' });
    expect(await probeIds(db.dataSource)).toEqual(['pf-before']);
    expect(await store.get('pf-1')).toMatchObject({ state: 'failed', attempts: 1 });
  });

  it('drains a backlog by claiming batches: each entry once, a failing one backed off and not retried in the run', async () => {
    const { service, store, excluded } = await serviceOn(db.uow, { throwFor: 'cl-007' });
    await db.uow.transaction(async () => {
      for (let i = 0; i < 60; i += 1) {
        const eventId = `cl-${String(i).padStart(3, '0')}`;
        await store.record({
          eventId,
          name: 'user.created',
          envelope: 'flat',
          rawBody: body(eventId),
          receivedAt: t0,
        });
      }
    });
    const summary = await service.processing.processPending({ limit: 25, minAgeMs: 0, untilEmpty: true });
    expect(summary).toEqual({ processed: 59, failed: 1, skipped: 0, batches: 3 });
    expect((await probeIds(db.dataSource)).length).toBe(59);
    expect(await store.countByState()).toEqual({ processed: 59, failed: 1 });
    // The store's clock is t0, a day before the run: cl-007's retry (t0 + 30 s) is due by the
    // run's `now`, so the later claims must name it to leave it alone.
    expect(excluded.at(-1)).toEqual(['cl-007']);
  });

  it('drains through many failures with short claims: a failure retried after the run started is not listed', async () => {
    // A handler down for a third of the backlog, on the store's real clock: each failure is due
    // again 30 s after it failed, after the run's `now`, so the claims need not exclude it by id.
    const failing = (eventId: string) => Number(eventId.slice(3)) % 3 === 0;
    const { service, store, excluded } = await serviceOn(db.uow, {
      throwFor: failing,
      clock: () => new Date(),
    });
    const ids = Array.from({ length: 90 }, (_, i) => `mf-${String(i).padStart(3, '0')}`);
    await db.uow.transaction(async () => {
      for (const eventId of ids)
        await store.record({
          eventId,
          name: 'user.created',
          envelope: 'flat',
          rawBody: body(eventId),
          receivedAt: new Date(Date.now() - 60_000),
        });
    });
    const startedAt = Date.now();
    const summary = await service.processing.processPending({ limit: 20, minAgeMs: 0, untilEmpty: true });
    expect(summary).toMatchObject({ processed: 60, failed: 30, skipped: 0 });
    expect(excluded.length).toBeGreaterThanOrEqual(5);
    expect(excluded.every((list) => list.length === 0)).toBe(true);
    expect(await store.countByState()).toEqual({ processed: 60, failed: 30 });
    for (const eventId of ids.filter(failing)) {
      const entry = await store.get(eventId);
      expect(entry).toMatchObject({ state: 'failed', attempts: 1 });
      expect(entry!.nextAttemptAt!.getTime()).toBeGreaterThanOrEqual(startedAt + 29_000);
    }
  });
});

describe('two replicas draining one backlog on PostgreSQL', () => {
  let db: TestDatabase;
  beforeAll(async () => {
    db = await openTestDatabase('postgres', 'replicas');
    await db.dataSource.query('CREATE TABLE batch_parent (id varchar(200) PRIMARY KEY)');
    await db.dataSource.query('CREATE TABLE batch_probe (id varchar(200) PRIMARY KEY, ref varchar(200))');
  });
  afterAll(async () => db?.close());

  it('claim different entries (FOR UPDATE SKIP LOCKED) and process each exactly once, sharing the work', async () => {
    const runs = new Map<string, number>();
    const a = await serviceOn(db.uow, { runs });
    const b = await serviceOn((await db.openAnother()).uow, { runs });
    const ids = Array.from({ length: 400 }, (_, i) => `rep-${String(i).padStart(3, '0')}`);
    await db.uow.transaction(async () => {
      for (const eventId of ids) {
        await a.store.record({
          eventId,
          name: 'user.created',
          envelope: 'flat',
          rawBody: body(eventId),
          receivedAt: t0,
        });
      }
    });
    const options = { limit: 20, minAgeMs: 0, untilEmpty: true, concurrency: 2 };
    const [sa, sb] = await Promise.all([
      a.service.processing.processPending(options),
      b.service.processing.processPending(options),
    ]);
    expect(sa.processed + sb.processed).toBe(ids.length);
    expect(sa.failed + sb.failed).toBe(0);
    expect(sa.processed).toBeGreaterThan(0);
    expect(sb.processed).toBeGreaterThan(0);
    expect([...runs.values()].every((n) => n === 1)).toBe(true);
    expect(runs.size).toBe(ids.length);
    const attempts: Array<{ attempts: number; n: string }> = await db.dataSource.query(
      'SELECT attempts, COUNT(*) AS n FROM webhook_inbox GROUP BY attempts',
    );
    expect(attempts.map((r) => [r.attempts, Number(r.n)])).toEqual([[1, ids.length]]);
  });
});
