import type { LoggerService } from '@nestjs/common';
import { EventEmitter2 } from '@nestjs/event-emitter';
import { PartnerConfigurationError } from '../errors/partner-api.errors';
import type { PartnerWebhookObservation } from '../observability/hooks.util';
import { PartnerInMemoryInboxStore } from './inbox/inbox-memory.store';
import type { InboxEventInput } from './inbox/inbox.store';
import { webhookServices } from './webhook-services.fixture';

/*
 * The inbox lag stays bounded at the ingest rate. When `batching.maxBacklog` events are
 * being processed, a new delivery waits for room before it is recorded (at most
 * `maxBacklogWaitMs`), so intake slows to what the handlers keep up with.
 */

const silent: LoggerService = { log: jest.fn(), warn: jest.fn(), error: jest.fn() };
const body = (id: string) =>
  JSON.stringify({ event: 'payout.completed', data: { event_id: id, payout_id: `p_${id}` } });

/** A pipeline whose payout.completed handler holds each event until `release(id)`. */
async function pipeline(batching: Record<string, number>) {
  const emitter = new EventEmitter2();
  const held = new Map<string, () => void>();
  emitter.on(
    'payout.completed',
    (event: { eventId: string }) => new Promise<void>((resolve) => held.set(event.eventId, resolve)),
  );
  const inbox = new PartnerInMemoryInboxStore({ retryDelaysMs: [0] });
  const observed: PartnerWebhookObservation[] = [];
  const services = await webhookServices({
    logger: silent,
    batching,
    inboxStore: inbox,
    emitter,
    onWebhookEvent: (e) => observed.push(e),
  });
  const release = async (id: string) => {
    await until(() => held.has(id));
    (held.get(id) as () => void)();
  };
  const waits = () => observed.filter((e) => e.type === 'backpressure');
  const holding = (id: string) => held.has(id);
  return { ...services, inbox, release, waits, holding };
}

/** An entry recorded a minute ago, as a delivery would have: due for a drain. */
const recorded = (id: string): InboxEventInput => ({
  eventId: id,
  name: 'payout.completed',
  envelope: 'flat',
  rawBody: body(id),
  receivedAt: new Date(Date.now() - 60_000),
});

/** Polls (macrotask by macrotask) until `check` holds; fails after 2,000 turns. */
async function until(check: () => boolean): Promise<void> {
  for (let turn = 0; turn < 2_000; turn++) {
    if (check()) return;
    await new Promise((resolve) => setImmediate(resolve));
  }
  throw new Error('condition never held');
}

describe('webhook backpressure (batching.maxBacklog)', () => {
  it('holds a delivery before recording it while the backlog is full, and lets it in when one settles', async () => {
    const { ingest, processing, inbox, release, waits } = await pipeline({
      maxBacklog: 2,
      maxBacklogWaitMs: 60_000,
    });
    const first = await Promise.all([ingest.accept(body('e1')), ingest.accept(body('e2'))]);
    expect(first.map((r) => r.status)).toEqual(['accepted', 'accepted']);
    let third = false;
    const before = new Date();
    const pending = ingest.accept(body('e3')).then((r) => ((third = true), r));
    await until(() => processing.waitingForRoom === 1);
    expect(third).toBe(false);
    expect(inbox.get('e3')).toBeUndefined(); // not recorded while it waits: nothing half-way
    // The wait lasts a measurable while, so an arrival time stamped after it would show.
    await new Promise((r) => setTimeout(r, 20));
    const released = Date.now();
    await release('e1');
    const result = await pending;
    expect(result.status).toBe('accepted');
    expect(processing.waitingForRoom).toBe(0);
    // Reported once, for e3 only (onWebhookEvent: the app's partner_webhook_backpressure_* metrics).
    expect(waits()).toEqual([
      expect.objectContaining({ eventId: 'e3', eventName: 'payout.completed', timedOut: false }),
    ]);
    // received_at is the arrival, before the wait: the lag an operator reads includes it.
    // (Bounded by the release, not by before + 50 ms: a pause of the process between the two would
    // have failed that.)
    expect(inbox.get('e3')?.receivedAt.getTime()).toBeGreaterThanOrEqual(before.getTime());
    expect(inbox.get('e3')?.receivedAt.getTime()).toBeLessThan(released);
    await release('e2');
    await release('e3');
    await processing.drain();
    expect(['e1', 'e2', 'e3'].map((id) => inbox.get(id)?.state)).toEqual([
      'processed',
      'processed',
      'processed',
    ]);
  });

  it('lets waiting deliveries in oldest first, as many as there is room for', async () => {
    const { ingest, processing, release } = await pipeline({ maxBacklog: 1, maxBacklogWaitMs: 60_000 });
    await ingest.accept(body('a1'));
    const order: string[] = [];
    const waiting = ['a2', 'a3'].map((id) => ingest.accept(body(id)).then(() => order.push(id)));
    await until(() => processing.waitingForRoom === 2);
    await release('a1');
    await until(() => order.length === 1);
    expect(order).toEqual(['a2']);
    expect(processing.waitingForRoom).toBe(1); // a2 is in processing now: a3 still waits
    await release('a2');
    await Promise.all(waiting);
    expect(order).toEqual(['a2', 'a3']);
    await release('a3');
    await processing.drain();
  });

  it('records and answers after maxBacklogWaitMs even when no room came (bounded wait)', async () => {
    const { ingest, processing, inbox, release, waits } = await pipeline({
      maxBacklog: 1,
      maxBacklogWaitMs: 20,
    });
    await ingest.accept(body('w1'));
    const pending = ingest.accept(body('w2'));
    await until(() => processing.waitingForRoom === 1);
    const late = await pending; // w1 is still held: only the wait's end lets it in
    expect(late.status).toBe('accepted');
    expect(inbox.get('w2')?.state).toBe('pending');
    const [wait] = waits();
    expect(wait).toMatchObject({ eventId: 'w2', timedOut: true });
    expect(wait.type === 'backpressure' && wait.waitedMs).toBeGreaterThanOrEqual(15);
    expect(processing.waitingForRoom).toBe(0);
    await release('w1');
    await release('w2');
    await processing.drain();
  });

  it('never waits with maxBacklogWaitMs 0', async () => {
    const { ingest, processing, release, waits } = await pipeline({ maxBacklog: 1, maxBacklogWaitMs: 0 });
    await ingest.accept(body('z1'));
    expect(processing.roomToProcess()).toBeNull();
    await ingest.accept(body('z2'));
    expect(waits()).toEqual([]);
    await release('z1');
    await release('z2');
    await processing.drain();
  });

  it('refuses a bad maxBacklog or maxBacklogWaitMs at boot, naming the field', async () => {
    const bad = (batching: Record<string, unknown>) => webhookServices({ logger: silent, batching });
    await expect(bad({ maxBacklog: 0 })).rejects.toThrow(PartnerConfigurationError);
    await expect(bad({ maxBacklog: 0 })).rejects.toThrow(/webhooks\.batching\.maxBacklog/);
    await expect(bad({ maxBacklogWaitMs: -1 })).rejects.toThrow(/webhooks\.batching\.maxBacklogWaitMs/);
    await expect(bad({ maxBacklogWaitMs: 1.5 })).rejects.toThrow(/webhooks\.batching\.maxBacklogWaitMs/);
    expect((await webhookServices({ logger: silent })).config.batching).toEqual({
      maxBacklog: 512,
      maxBacklogWaitMs: 5_000,
    });
  });

  it("refuses the store's batching options here, naming the store option that takes them", async () => {
    for (const key of ['maxRecordRows', 'maxWaitMs', 'maxProcessRows', 'processConcurrency']) {
      await expect(webhookServices({ logger: silent, batching: { [key]: 8 } })).rejects.toThrow(
        `webhooks.batching.${key}" is an option of the inbox store, not of the module: @partner-payments/typeorm takes it as inbox.${key}`,
      );
    }
  });
});

describe('drain runs (processPending)', () => {
  it('count the entries they are processing towards maxBacklog', async () => {
    const { ingest, processing, inbox, release, holding } = await pipeline({
      maxBacklog: 1,
      maxBacklogWaitMs: 60_000,
    });
    await inbox.record(recorded('b1'));
    const run = processing.processPending({ minAgeMs: 0 });
    await until(() => holding('b1'));
    let admitted = false;
    const pending = ingest.accept(body('b2')).then((r) => ((admitted = true), r));
    await until(() => processing.waitingForRoom === 1);
    expect(admitted).toBe(false);
    await release('b1');
    expect((await pending).status).toBe('accepted');
    expect(await run).toMatchObject({ processed: 1 });
    await release('b2');
    await processing.drain();
  });

  it('are waited for at shutdown, and stopped before their next batch', async () => {
    const { processing, inbox, release, holding, close } = await pipeline({
      maxBacklog: 8,
      maxBacklogWaitMs: 60_000,
    });
    for (const id of ['d1', 'd2', 'd3']) await inbox.record(recorded(id));
    const run = processing.processPending({ limit: 1, untilEmpty: true, minAgeMs: 0 });
    await until(() => holding('d1'));
    let closed = false;
    const closing = close().then(() => (closed = true));
    // Generous: close() has nothing else to wait for, so it would have resolved by then.
    await new Promise((r) => setTimeout(r, 100));
    expect(closed).toBe(false);
    await release('d1');
    await closing;
    expect(await run).toEqual({ processed: 1, failed: 0, skipped: 0, batches: 1 });
    expect(['d1', 'd2', 'd3'].map((id) => inbox.get(id)?.state)).toEqual(['processed', 'pending', 'pending']);
    // A run asked for after shutdown began takes no batch.
    expect(await processing.processPending({ minAgeMs: 0 })).toMatchObject({ batches: 0 });
    expect(holding('d2')).toBe(false);
  });

  it("still stops at the caller's own signal", async () => {
    const { processing, inbox, release, holding } = await pipeline({ maxBacklog: 8, maxBacklogWaitMs: 0 });
    for (const id of ['s1', 's2']) await inbox.record(recorded(id));
    const caller = new AbortController();
    const run = processing.processPending({ limit: 1, untilEmpty: true, minAgeMs: 0, signal: caller.signal });
    await until(() => holding('s1'));
    caller.abort();
    await release('s1');
    expect(await run).toMatchObject({ processed: 1, batches: 1 });
    expect(inbox.get('s2')?.state).toBe('pending');
  });
});
