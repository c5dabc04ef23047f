import { payoutRetryAt } from './payout-retry.policy';

describe('payoutRetryAt', () => {
  const now = new Date('2026-11-28T12:00:00.000Z');
  const delay = (attempts: number) => payoutRetryAt(attempts, now).getTime() - now.getTime();

  it('waits 1 min after the first failed re-send, doubling, capped at 1 h', () => {
    expect([1, 2, 3, 6, 7, 50, 10_000].map(delay)).toEqual([
      60_000, 120_000, 240_000, 1_920_000, 3_600_000, 3_600_000, 3_600_000,
    ]);
  });
});
