import { mapWithConcurrency } from './concurrency.util';
import { reconcileRetryAt } from './reconcile-backoff.policy';

describe('mapWithConcurrency', () => {
  it('never has more than the limit in flight and keeps input order', async () => {
    let inFlight = 0;
    let peak = 0;
    const out = await mapWithConcurrency([5, 1, 4, 2, 3, 0], 2, async (n) => {
      inFlight++;
      peak = Math.max(peak, inFlight);
      await new Promise((r) => setTimeout(r, n * 3));
      inFlight--;
      return n * 10;
    });
    expect(out).toEqual([50, 10, 40, 20, 30, 0]);
    expect(peak).toBe(2);
  });
});

describe('reconcileRetryAt', () => {
  const now = new Date('2026-11-22T00:00:00.000Z');
  it('doubles from 30 s and caps at 30 min', () => {
    expect(reconcileRetryAt(1, now).getTime() - now.getTime()).toBe(30_000);
    expect(reconcileRetryAt(3, now).getTime() - now.getTime()).toBe(120_000);
    expect(reconcileRetryAt(20, now).getTime() - now.getTime()).toBe(1_800_000);
  });
});
