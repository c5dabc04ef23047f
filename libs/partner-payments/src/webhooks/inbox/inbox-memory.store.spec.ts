import { PartnerInMemoryInboxStore } from './inbox-memory.store';
import type { InboxEventInput } from './inbox.store';

const input = (eventId: string, receivedAt = new Date('2026-04-14T10:00:00Z')): InboxEventInput => ({
  eventId,
  name: 'payout.completed',
  envelope: 'flat',
  rawBody: `{"event":"payout.completed","data":{"event_id":"${eventId}"}}`,
  receivedAt,
});

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
    await store.markProcessed('done');
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
    await store.markFailed('f', 'boom');
    expect(store.get('f')).toMatchObject({ state: 'failed', attempts: 1, lastError: 'boom' });
    expect(await store.pending()).toHaveLength(0); // not due yet
    now = new Date(now.getTime() + 60_000);
    expect((await store.pending()).map((e) => e.eventId)).toEqual(['f']);
    await store.markFailed('f', 'boom again');
    expect(store.get('f')).toMatchObject({ state: 'dead', attempts: 2, nextAttemptAt: null });
    expect(await store.pending({ now: new Date(now.getTime() + 3_600_000) })).toHaveLength(0);
  });

  it('stays bounded, evicting finished entries before unfinished ones', async () => {
    const store = new PartnerInMemoryInboxStore({ maxEntries: 3 });
    await store.record(input('a'));
    await store.record(input('b'));
    await store.markProcessed('b');
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

  it('returns copies: callers cannot mutate the stored entries', async () => {
    const store = new PartnerInMemoryInboxStore();
    await store.record(input('x'));
    const [entry] = await store.pending();
    entry.state = 'processed';
    expect(store.get('x')?.state).toBe('pending');
  });

  it('leaves a processed entry processed when a late failure is reported', async () => {
    const store = new PartnerInMemoryInboxStore();
    await store.record(input('e1'));
    await store.markProcessed('e1');
    await store.markFailed('e1', 'an earlier attempt failed');
    expect(await store.pending({ now: new Date('2026-04-15T10:00:00Z') })).toEqual([]);
    expect(store.get('e1')).toMatchObject({ state: 'processed', attempts: 1, lastError: null });
  });

  it('ignores marks for unknown ids', async () => {
    const store = new PartnerInMemoryInboxStore();
    await expect(store.markProcessed('nope')).resolves.toBeUndefined();
    await expect(store.markFailed('nope', 'x')).resolves.toBeUndefined();
    expect(store.size).toBe(0);
  });
});
