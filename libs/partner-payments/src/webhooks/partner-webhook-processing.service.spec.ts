import type { LoggerService } from '@nestjs/common';
import { EventEmitter2 } from '@nestjs/event-emitter';
import { PartnerInMemoryInboxStore } from './inbox/inbox-memory.store';
import type { PartnerInboxStore } from './inbox/inbox.store';
import { PartnerDerivedEvent, PartnerEvent } from './events/partner-event.constants';
import { computePartnerSignature } from './signature.util';
import { webhookServices } from './webhook-services.fixture';

const SECRET = 'whsec_unit';
const silent: LoggerService = { log: jest.fn(), warn: jest.fn(), error: jest.fn() };

async function setup(options: { inbox?: PartnerInboxStore; emitter?: EventEmitter2 | null } = {}) {
  const inbox = options.inbox ?? new PartnerInMemoryInboxStore({ retryDelaysMs: [0] });
  const service = await webhookServices({
    logger: silent,
    secrets: [SECRET],
    inboxStore: inbox,
    emitter: options.emitter,
  });
  const emitter = service.emitter;
  const seen: Array<{ name: string; event: unknown }> = [];
  emitter?.onAny((name, event) => void seen.push({ name: String(name), event }));
  return { service, inbox, emitter, seen };
}

const completed = Buffer.from(
  JSON.stringify({
    event: 'payout.completed',
    data: { event_id: 'evt_c', payout_id: 'p1', status: 'completed' },
  }),
);
const signed = (raw: Buffer) => ({ 'x-signature-sha256': computePartnerSignature(raw, SECRET) });

/**
 * A store with a unit of work: the processed mark is written in it and lands at commit, a
 * rollback drops the handlers' work and the mark, and the failure is recorded after it.
 */
function transactionalStore(log: string[], failCommit: { next: boolean }): PartnerInboxStore {
  return new (class extends PartnerInMemoryInboxStore {
    override process<T>(id: string, handle: () => Promise<T>) {
      return super.process(id, async () => {
        log.push(`begin ${id}`);
        const result = await handle();
        log.push('mark processed');
        if (failCommit.next) {
          failCommit.next = false;
          log.push('rollback');
          throw new Error('commit failed');
        }
        log.push('commit');
        return result;
      });
    }
  })({ retryDelaysMs: [0] });
}

describe('PartnerWebhookProcessingService', () => {
  it('runs the handlers inside the store unit of work, the processed mark after them', async () => {
    const order: string[] = [];
    const { service, emitter } = await setup({ inbox: transactionalStore(order, { next: false }) });
    emitter!.on(PartnerEvent.PayoutCompleted, async () => void order.push('handler'));
    await service.ingest.handle(completed, signed(completed), { waitForProcessing: true });
    expect(order).toEqual(['begin evt_c', 'handler', 'mark processed', 'commit']);
  });

  it('skips, without running a handler, an entry the store finds already processed (another replica)', async () => {
    const base = new PartnerInMemoryInboxStore({ retryDelaysMs: [0] });
    const inbox: PartnerInboxStore = {
      record: (e) => base.record(e),
      process: async () => ({ outcome: 'skipped' }),
      drain: (handle, o) => base.drain(handle, o),
    };
    const { service, emitter } = await setup({ inbox });
    let handled = 0;
    emitter!.on(PartnerEvent.PayoutCompleted, async () => void (handled += 1));
    emitter!.on(PartnerDerivedEvent.PayoutStatus, async () => void (handled += 1));
    const result = await service.ingest.handle(completed, signed(completed), { waitForProcessing: true });
    await expect(result.processing).resolves.toEqual({ outcome: 'skipped', eventId: 'evt_c' });
    expect(handled).toBe(0);
  });

  it('settles the processing as failed, never rejecting, when the store itself rejects', async () => {
    const base = new PartnerInMemoryInboxStore();
    const inbox: PartnerInboxStore = {
      record: (e) => base.record(e),
      drain: (handle, o) => base.drain(handle, o),
      process: async () => {
        throw new Error('store down while recording the failure');
      },
    };
    const { service } = await setup({ inbox });
    const result = await service.ingest.handle(completed, signed(completed));
    const outcome = await result.processing;
    expect(outcome).toMatchObject({
      outcome: 'failed',
      eventId: 'evt_c',
      error: 'store down while recording the failure',
    });
    // Not null (dead): the failure was not recorded, so the entry is still due and a drain takes it.
    expect(outcome).toHaveProperty('retryAt', undefined);
    expect(await service.processing.processPending({ minAgeMs: 0 })).toMatchObject({ processed: 1 });
  });

  it('redeliver() re-emits a stored entry by its stored id', async () => {
    const { service, seen, inbox } = await setup();
    await inbox.record({
      eventId: 'evt_c',
      name: 'payout.completed',
      envelope: 'flat',
      rawBody: completed.toString(),
      receivedAt: new Date(),
    });
    const outcome = await service.processing.redeliver({ eventId: 'evt_c', rawBody: completed.toString() });
    expect(outcome).toMatchObject({ outcome: 'processed', eventId: 'evt_c' });
    expect(seen[0]).toMatchObject({ name: 'payout.completed' });
  });

  it('fails processing (entry failed, not lost) when no EventEmitter2 is available', async () => {
    const { service, inbox } = await setup({ emitter: null });
    const result = await service.ingest.handle(completed, signed(completed), { waitForProcessing: true });
    await expect(result.processing).resolves.toMatchObject({
      outcome: 'failed',
      error: expect.stringContaining('EventEmitterModule'),
    });
    expect((inbox as PartnerInMemoryInboxStore).get('evt_c')?.state).toBe('failed');
  });

  it('re-announces the unified status when the unit of work fails at commit (its writes were rolled back)', async () => {
    const log: string[] = [];
    const { service, emitter } = await setup({ inbox: transactionalStore(log, { next: true }) });
    let statuses = 0;
    emitter!.on(PartnerDerivedEvent.PayoutStatus, async () => void (statuses += 1));
    const first = await service.ingest.handle(completed, signed(completed), { waitForProcessing: true });
    await expect(first.processing).resolves.toMatchObject({ outcome: 'failed', error: 'commit failed' });
    await new Promise((r) => setTimeout(r, 5));
    expect(await service.processing.processPending()).toMatchObject({ processed: 1 });
    expect(statuses).toBe(2);
    expect(log).toEqual([
      'begin evt_c',
      'mark processed',
      'rollback',
      'begin evt_c',
      'mark processed',
      'commit',
    ]);
  });

  // A backlog left by a crash drains in one run, not one batch of 100 per run (a minute apart).
  describe('processPending({ untilEmpty })', () => {
    const stored = (i: number) => ({
      eventId: `b${String(i).padStart(3, '0')}`,
      name: 'user.updated',
      envelope: 'flat' as const,
      rawBody: JSON.stringify({ event: 'user.updated', data: { event_id: `b${i}`, user_id: `u${i}` } }),
      receivedAt: new Date(Date.now() - 60_000),
    });

    it('drains every due entry in bounded batches, at most `concurrency` at once', async () => {
      const inbox = new PartnerInMemoryInboxStore({ retryDelaysMs: [60_000] });
      for (let i = 0; i < 95; i += 1) await inbox.record(stored(i));
      const reads: number[] = [];
      const pending = inbox.pending.bind(inbox);
      inbox.pending = (o) => {
        const entries = pending(o);
        reads.push(entries.length);
        return entries;
      };
      const { service, emitter } = await setup({ inbox });
      let running = 0;
      let most = 0;
      emitter!.on(PartnerEvent.UserUpdated, async () => {
        running += 1;
        most = Math.max(most, running);
        await new Promise((r) => setTimeout(r, 1));
        running -= 1;
      });
      const summary = await service.processing.processPending({
        limit: 20,
        concurrency: 3,
        untilEmpty: true,
      });
      expect(summary).toEqual({ processed: 95, failed: 0, skipped: 0, batches: 5 });
      expect(reads).toEqual([20, 20, 20, 20, 15, 0]);
      expect(most).toBe(3);
      expect(await inbox.pending({ minAgeMs: 0 })).toEqual([]);
    });

    it('tries a failing entry once per run: it keeps its backoff, the drain does not spin on it', async () => {
      const inbox = new PartnerInMemoryInboxStore({ retryDelaysMs: [0] });
      for (let i = 0; i < 30; i += 1) await inbox.record(stored(i));
      const { service, emitter } = await setup({ inbox });
      let failures = 0;
      emitter!.on(PartnerEvent.UserUpdated, async (event: { eventId: string }) => {
        if (event.eventId === 'b007') {
          failures += 1;
          throw new Error('handler down');
        }
      });
      // A zero backoff makes the entry due again at once: only the run's own bookkeeping stops a spin.
      const summary = await service.processing.processPending({ limit: 8, concurrency: 2, untilEmpty: true });
      expect(summary).toMatchObject({ processed: 29, failed: 1 });
      expect(failures).toBe(1);
      expect(inbox.get('b007')).toMatchObject({ state: 'failed', attempts: 1 });
    });

    it('reads one batch only without untilEmpty', async () => {
      const inbox = new PartnerInMemoryInboxStore();
      for (let i = 0; i < 30; i += 1) await inbox.record(stored(i));
      const { service } = await setup({ inbox });
      expect(await service.processing.processPending({ limit: 10 })).toEqual({
        processed: 10,
        failed: 0,
        skipped: 0,
        batches: 1,
      });
    });
  });
});
