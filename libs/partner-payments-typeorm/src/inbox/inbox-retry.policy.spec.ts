import { decideInboxRetry } from './inbox-retry.policy';

const now = new Date('2026-11-22T00:00:00.000Z');
const opts = { maxAttempts: 4, baseDelayMs: 1000, maxDelayMs: 3000 };

describe('decideInboxRetry', () => {
  it('doubles the delay per failure from the base', () => {
    expect(decideInboxRetry(1, now, opts)).toEqual({
      state: 'failed',
      nextAttemptAt: new Date(now.getTime() + 1000),
    });
    expect(decideInboxRetry(2, now, opts)).toEqual({
      state: 'failed',
      nextAttemptAt: new Date(now.getTime() + 2000),
    });
  });

  it('caps the delay', () => {
    expect(decideInboxRetry(3, now, opts)).toEqual({
      state: 'failed',
      nextAttemptAt: new Date(now.getTime() + 3000),
    });
  });

  it('marks the entry dead at the attempt limit, with nothing scheduled', () => {
    expect(decideInboxRetry(4, now, opts)).toEqual({ state: 'dead', nextAttemptAt: null });
    expect(decideInboxRetry(9, now, opts).state).toBe('dead');
  });
});
