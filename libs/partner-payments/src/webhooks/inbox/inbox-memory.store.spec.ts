import { Logger, type LoggerService } from '@nestjs/common';
import { PartnerInMemoryInboxStore } from './inbox-memory.store';
import type { InboxEventInput } from './inbox.store';

const input = (eventId: string, receivedAt = new Date('2026-04-14T10:00:00Z')): InboxEventInput => ({
  eventId,
  name: 'payout.completed',
  envelope: 'flat',
  rawBody: `{"event":"payout.completed","data":{"event_id":"${eventId}"}}`,
  receivedAt,
});

const ok = (store: PartnerInMemoryInboxStore, id: string) => store.process(id, async () => 'done');
const fail = (store: PartnerInMemoryInboxStore, id: string, message: string) =>
  store.process(id, async () => {
    throw new Error(message);
  });

/** A logger that keeps what it is given, by level. */
function capture() {
  const lines = { error: [] as string[], warn: [] as string[], log: [] as string[] };
  const logger: LoggerService = {
    log: (m: unknown) => void lines.log.push(String(m)),
    warn: (m: unknown) => void lines.warn.push(String(m)),
    error: (m: unknown) => void lines.error.push(String(m)),
  };
  return { logger, lines };
}

describe('PartnerInMemoryInboxStore', () => {
  it('records an event once; the same event_id again is a duplicate (spec 6.1.4)', async () => {
    const store = new PartnerInMemoryInboxStore();
    expect(await store.record(input('e1'))).toBe('new');
    expect(await store.record(input('e1'))).toBe('duplicate');
    expect(store.size).toBe(1);
  });

  it('gives exactly one "new" to concurrent records of one event_id', async () => {
    const store = new PartnerInMemoryInboxStore();
    const results = await Promise.all(Array.from({ length: 20 }, () => store.record(input('race'))));
    expect(results.filter((r) => r === 'new')).toHaveLength(1);
    expect(results.filter((r) => r === 'duplicate')).toHaveLength(19);
  });

  it('lists pending entries oldest first, and not processed ones', async () => {
    const store = new PartnerInMemoryInboxStore();
    await store.record(input('late', new Date('2026-04-14T10:00:02Z')));
    await store.record(input('early', new Date('2026-04-14T10:00:01Z')));
    await store.record(input('done'));
    await ok(store, 'done');
    expect((await store.pending()).map((e) => e.eventId)).toEqual(['early', 'late']);
    expect((await store.pending({ limit: 1 })).map((e) => e.eventId)).toEqual(['early']);
    expect(store.get('done')).toMatchObject({ state: 'processed', attempts: 1, lastError: null });
  });

  it('leaves never-processed entries younger than minAgeMs to the delivery that recorded them', async () => {
    const store = new PartnerInMemoryInboxStore();
    await store.record(input('old', new Date('2026-04-14T10:00:00Z')));
    await store.record(input('young', new Date('2026-04-14T10:00:09Z')));
    const now = new Date('2026-04-14T10:00:10Z');
    expect((await store.pending({ now, minAgeMs: 5_000 })).map((e) => e.eventId)).toEqual(['old']);
    expect((await store.pending({ now, minAgeMs: 0 })).map((e) => e.eventId)).toEqual(['old', 'young']);
  });

  it('schedules a failed entry for later, then marks it dead past maxAttempts', async () => {
    let now = new Date('2026-04-14T10:00:00Z');
    const store = new PartnerInMemoryInboxStore({ maxAttempts: 2, retryDelaysMs: [60_000], now: () => now });
    await store.record(input('f'));
    await fail(store, 'f', 'boom');
    expect(store.get('f')).toMatchObject({ state: 'failed', attempts: 1, lastError: 'boom' });
    expect(await store.pending()).toHaveLength(0); // not due yet
    now = new Date(now.getTime() + 60_000);
    expect((await store.pending()).map((e) => e.eventId)).toEqual(['f']);
    await fail(store, 'f', 'boom again');
    expect(store.get('f')).toMatchObject({ state: 'dead', attempts: 2, nextAttemptAt: null });
    expect(await store.pending({ now: new Date(now.getTime() + 3_600_000) })).toHaveLength(0);
  });

  it('stays bounded, evicting finished entries before unfinished ones', async () => {
    const store = new PartnerInMemoryInboxStore({ maxEntries: 3, logger: capture().logger });
    await store.record(input('a'));
    await store.record(input('b'));
    await ok(store, 'b');
    await store.record(input('c'));
    await store.record(input('d'));
    expect(store.size).toBe(3);
    expect(store.get('b')).toBeUndefined(); // the finished one went first
    expect(store.get('a')).toBeDefined();
    await store.record(input('e'));
    expect(store.size).toBe(3);
    expect(store.get('a')).toBeUndefined(); // then the oldest unfinished
    expect(store.evictedUnfinishedCount).toBe(1);
  });

  it('logs one error per unfinished entry it evicts (id and name, never the body), none for finished ones', async () => {
    const { logger, lines } = capture();
    const store = new PartnerInMemoryInboxStore({ maxEntries: 4, maxAttempts: 1, logger });
    const body = (id: string, name: string): InboxEventInput => ({
      ...input(id),
      name,
      rawBody: `{"event":"${name}","data":{"event_id":"${id}","account_number":"BODY-ONLY-123456789"}}`,
    });
    await store.record(body('done_1', 'user.created'));
    await ok(store, 'done_1');
    await store.record(body('pending_1', 'payout.completed'));
    await store.record(body('dead_1', 'user.updated'));
    await fail(store, 'dead_1', 'boom'); // maxAttempts 1: dead, finished
    await store.record(body('dead_2', 'virtual_account.created'));
    await fail(store, 'dead_2', 'boom');
    await store.record(body('new_1', 'payout.failed')); // evicts done_1 (processed)
    await store.record(body('new_2', 'payout.failed')); // evicts dead_1 (dead)
    await store.record(body('new_3', 'payout.failed')); // evicts dead_2 (dead)
    expect(lines.error).toEqual([]);
    expect(store.evictedUnfinishedCount).toBe(0);
    await store.record(body('new_4', 'payout.returned')); // nothing finished left: evicts pending_1
    expect(store.get('pending_1')).toBeUndefined();
    expect(store.evictedUnfinishedCount).toBe(1);
    expect(lines.error).toHaveLength(1);
    expect(lines.error[0]).toContain('payout.completed (pending_1)');
    expect(lines.error[0]).toContain('acknowledged but never processed');
    expect(lines.error[0]).toContain('state pending, 0 attempt(s)');
    expect(lines.error[0]).not.toContain('BODY-ONLY');
    expect(lines.error[0]).not.toContain('account_number');
    await store.record(body('new_5', 'payout.returned')); // evicts new_1
    expect(lines.error).toHaveLength(2);
    expect(lines.error[1]).toContain('payout.failed (new_1)');
    expect(lines.warn).toEqual([]);

    // A failed entry (attempted, due again later) is unfinished too.
    const second = capture();
    const retrying = new PartnerInMemoryInboxStore({ maxEntries: 1, logger: second.logger });
    await retrying.record(body('failed_2', 'user.status_changed'));
    await fail(retrying, 'failed_2', 'handler down');
    await retrying.record(body('next', 'user.created'));
    expect(second.lines.error).toEqual([expect.stringContaining('user.status_changed (failed_2)')]);
    expect(second.lines.error[0]).toContain('state failed, 1 attempt(s)');
    expect(second.lines.error[0]).not.toContain('handler down');
  });

  it("reports evictions through a Nest Logger with context 'PartnerWebhooks' by default", async () => {
    const spy = jest.spyOn(Logger.prototype, 'error').mockImplementation(() => undefined);
    try {
      const store = new PartnerInMemoryInboxStore({ maxEntries: 1 });
      await store.record(input('first'));
      await store.record(input('second'));
      expect(spy).toHaveBeenCalledTimes(1);
      expect(String(spy.mock.calls[0][0])).toContain('payout.completed (first)');
      expect((spy.mock.contexts[0] as { context?: string }).context).toBe('PartnerWebhooks');
    } finally {
      spy.mockRestore();
    }
  });

  it('still records the new event when the logger throws', async () => {
    const logger: LoggerService = {
      log: () => undefined,
      warn: () => undefined,
      error: () => {
        throw new Error('logger down');
      },
    };
    const store = new PartnerInMemoryInboxStore({ maxEntries: 1, logger });
    await store.record(input('first'));
    await expect(store.record(input('second'))).resolves.toBe('new');
    expect(store.get('second')?.state).toBe('pending');
    expect(store.evictedUnfinishedCount).toBe(1);
  });

  it('returns copies: callers cannot mutate the stored entries', async () => {
    const store = new PartnerInMemoryInboxStore();
    await store.record(input('x'));
    const [entry] = await store.pending();
    entry.state = 'processed';
    expect(store.get('x')?.state).toBe('pending');
  });

  it('answers process with the outcome: processed, failed with its retry time, skipped once processed', async () => {
    const now = new Date('2026-04-14T10:00:00Z');
    const store = new PartnerInMemoryInboxStore({ retryDelaysMs: [60_000], now: () => now });
    await store.record(input('e1'));
    expect(await fail(store, 'e1', 'boom')).toEqual({
      outcome: 'failed',
      error: 'boom',
      retryAt: new Date(now.getTime() + 60_000),
    });
    expect(await ok(store, 'e1')).toEqual({ outcome: 'processed', value: 'done' });
    let ran = false;
    expect(await store.process('e1', async () => (ran = true))).toEqual({ outcome: 'skipped' });
    expect(ran).toBe(false);
    expect(store.get('e1')).toMatchObject({ state: 'processed', attempts: 2, lastError: null });
  });

  it('skips, without running handle, an id it never recorded or no longer keeps (as the TypeORM store does)', async () => {
    const store = new PartnerInMemoryInboxStore({ maxEntries: 1, logger: capture().logger });
    let runs = 0;
    const handle = async () => void (runs += 1);
    expect(await store.process('never-recorded', handle)).toEqual({ outcome: 'skipped' });
    await store.record(input('evicted'));
    await store.record(input('kept'));
    expect(store.get('evicted')).toBeUndefined();
    expect(await store.process('evicted', handle)).toEqual({ outcome: 'skipped' });
    expect(await store.process('never-recorded', () => Promise.reject(new Error('boom')))).toEqual({
      outcome: 'skipped',
    });
    expect(runs).toBe(0);
    expect(store.size).toBe(1);
  });

  it('does not run an entry twice at once: a second process while the first runs is skipped', async () => {
    const store = new PartnerInMemoryInboxStore();
    await store.record(input('e1'));
    let release!: () => void;
    const first = store.process('e1', () => new Promise<string>((r) => (release = () => r('first'))));
    expect(await store.process('e1', async () => 'second')).toEqual({ outcome: 'skipped' });
    expect(await store.drain(async () => 'drained', { minAgeMs: 0 })).toMatchObject({ processed: 0 });
    release();
    expect(await first).toEqual({ outcome: 'processed', value: 'first' });
  });

  it('drains what is due, each entry at most once a run, and ends with a failing handler', async () => {
    const store = new PartnerInMemoryInboxStore({ retryDelaysMs: [0] });
    for (const id of ['a', 'b', 'c', 'd', 'e']) await store.record(input(id));
    await ok(store, 'e');
    const seen: string[] = [];
    const summary = await store.drain(
      async (entry) => {
        seen.push(entry.eventId);
        if (entry.eventId === 'b') throw new Error('handler down');
      },
      { limit: 2, minAgeMs: 0, untilEmpty: true },
    );
    // b fails with a zero backoff, due again at once: the run still tries it once only.
    expect(summary).toEqual({ processed: 3, failed: 1, skipped: 0, batches: 2 });
    expect(seen).toEqual(['a', 'b', 'c', 'd']);
    expect(store.get('b')).toMatchObject({ state: 'failed', attempts: 1, lastError: 'handler down' });
    expect(await store.drain(async () => undefined, { minAgeMs: 0 })).toMatchObject({ processed: 1 });
  });
});
