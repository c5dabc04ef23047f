import { InboxGroupCommit } from './inbox-group-commit.util';
import type { InboxEventInput, InboxRecordResult } from '@partner-payments/nestjs/inbox';

const event = (eventId: string): InboxEventInput => ({
  eventId,
  name: 'user.created',
  envelope: 'flat',
  rawBody: `{"event":"user.created","data":{"event_id":"${eventId}"}}`,
  receivedAt: new Date('2026-11-24T08:00:00.000Z'),
});

/**
 * A store's recordBatch whose commits the test completes by hand: each call is kept with the ids
 * it was given, and its transaction "commits" (or fails) when the test says so. The ids a batch
 * answers 'new' are the ones no earlier committed batch held (insert-or-ignore).
 */
function controlledStore() {
  const stored = new Set<string>();
  const calls: Array<{ ids: string[]; commit(): void; fail(error: Error): void }> = [];
  const recordBatch = (events: readonly InboxEventInput[]): Promise<InboxRecordResult[]> =>
    new Promise((resolve, reject) => {
      const ids = events.map((e) => e.eventId);
      calls.push({
        ids,
        commit: () => {
          resolve(ids.map((id) => (stored.has(id) ? 'duplicate' : (stored.add(id), 'new'))));
        },
        fail: reject,
      });
    });
  return { stored, calls, recordBatch };
}

/** Lets setImmediate callbacks and the promise jobs they start run. */
const turn = () => new Promise<void>((resolve) => setImmediate(() => setImmediate(resolve)));

/** Tracks when each promise settles, without awaiting it. */
function track<T>(promise: Promise<T>) {
  const state: { settled: boolean; value?: T; error?: unknown } = { settled: false };
  promise.then(
    (value) => Object.assign(state, { settled: true, value }),
    (error: unknown) => Object.assign(state, { settled: true, error }),
  );
  return state;
}

describe('InboxGroupCommit', () => {
  it('puts deliveries of one event-loop turn in one transaction and answers none before it commits', async () => {
    const store = controlledStore();
    const group = new InboxGroupCommit(store, { maxRows: 256, maxWaitMs: 0 });
    const answers = ['a', 'b', 'c'].map((id) => track(group.record(event(id))));
    await turn();
    expect(store.calls.map((c) => c.ids)).toEqual([['a', 'b', 'c']]);
    expect(answers.some((a) => a.settled)).toBe(false); // in flight: nobody answered yet
    store.calls[0].commit();
    await turn();
    expect(answers.map((a) => a.value)).toEqual(['new', 'new', 'new']);
  });

  it('gathers what arrives during a commit into the next one, at most maxRows each', async () => {
    const store = controlledStore();
    const group = new InboxGroupCommit(store, { maxRows: 3, maxWaitMs: 0 });
    const first = track(group.record(event('first')));
    await turn();
    const later = ['l1', 'l2', 'l3', 'l4', 'l5'].map((id) => track(group.record(event(id))));
    await turn();
    expect(store.calls.map((c) => c.ids)).toEqual([['first']]); // nothing leaves while one is in flight
    expect(group.waiting).toBe(5);
    store.calls[0].commit();
    await turn();
    expect(first.value).toBe('new');
    expect(store.calls.map((c) => c.ids)).toEqual([['first'], ['l1', 'l2', 'l3']]);
    store.calls[1].commit();
    await turn();
    expect(store.calls[2].ids).toEqual(['l4', 'l5']);
    expect(later.filter((a) => a.settled)).toHaveLength(3);
    store.calls[2].commit();
    await turn();
    expect(later.map((a) => a.value)).toEqual(['new', 'new', 'new', 'new', 'new']);
  });

  it('sends a repeated id once per batch: the first caller gets the answer, the others duplicate', async () => {
    const store = controlledStore();
    const group = new InboxGroupCommit(store, { maxRows: 256, maxWaitMs: 0 });
    const inOne = ['x', 'y', 'x', 'x'].map((id) => track(group.record(event(id))));
    await turn();
    expect(store.calls[0].ids).toEqual(['x', 'y']);
    const acrossBatches = track(group.record(event('x'))); // arrives while the first is in flight
    store.calls[0].commit();
    await turn();
    expect(inOne.map((a) => a.value)).toEqual(['new', 'new', 'duplicate', 'duplicate']);
    expect(store.calls[1].ids).toEqual(['x']);
    store.calls[1].commit();
    await turn();
    expect(acrossBatches.value).toBe('duplicate');
  });

  it('rejects every delivery of a batch whose transaction failed, and goes on with the next', async () => {
    const store = controlledStore();
    const group = new InboxGroupCommit(store, { maxRows: 256, maxWaitMs: 0 });
    const doomed = ['d1', 'd2', 'd1'].map((id) => track(group.record(event(id))));
    await turn();
    const next = track(group.record(event('n1')));
    store.calls[0].fail(new Error('disk I/O error'));
    await turn();
    expect(doomed.map((a) => (a.error as Error | undefined)?.message)).toEqual([
      'disk I/O error',
      'disk I/O error',
      'disk I/O error',
    ]);
    expect(store.stored.size).toBe(0);
    store.calls[1].commit();
    await turn();
    expect(next.value).toBe('new');
  });

  it('does not hold a lone delivery for a fuller batch (maxWaitMs 0)', async () => {
    const store = controlledStore();
    const group = new InboxGroupCommit(store, { maxRows: 256, maxWaitMs: 0 });
    const lone = track(group.record(event('lone')));
    await turn();
    expect(store.calls.map((c) => c.ids)).toEqual([['lone']]);
    store.calls[0].commit();
    await turn();
    expect(lone.value).toBe('new');
  });

  it('with maxWaitMs, waits that long for company, or less once maxRows are there', async () => {
    jest.useFakeTimers({ doNotFake: ['setImmediate', 'nextTick', 'queueMicrotask'] });
    try {
      const store = controlledStore();
      const group = new InboxGroupCommit(store, { maxRows: 3, maxWaitMs: 5 });
      void group.record(event('w1'));
      await turn();
      expect(store.calls).toHaveLength(0);
      void group.record(event('w2'));
      jest.advanceTimersByTime(5);
      await turn();
      expect(store.calls.map((c) => c.ids)).toEqual([['w1', 'w2']]);
      store.calls[0].commit();
      await turn();
      ['f1', 'f2', 'f3'].forEach((id) => void group.record(event(id)));
      await turn(); // full: no waiting for the timer
      expect(store.calls[1]?.ids).toEqual(['f1', 'f2', 'f3']);
    } finally {
      jest.useRealTimers();
    }
  });
});
