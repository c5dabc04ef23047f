import { mapWithConcurrency } from './concurrency.util';
import { reconcileRetryAt } from './reconcile-backoff.policy';
import { chooseListWindow } from './list-window.policy';

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

describe('chooseListWindow', () => {
  const day = (d: string, payouts: number, candidates: number) => ({ day: d, payouts, candidates });

  it('lists from the day before the oldest candidate when the candidates are dense', () => {
    const w = chooseListWindow([day('2026-11-20', 4_000, 4_000), day('2026-11-21', 6_000, 6_000)]);
    expect(w).toEqual({
      fromDate: '2026-11-19',
      readBefore: new Date('2026-11-20T00:00:00.000Z'),
      expectedCalls: 100,
    });
  });

  it('reads a stale straggler by GET instead of paging through the month since it', () => {
    const w = chooseListWindow([
      day('2026-10-01', 500, 1), // one payout stuck in review for weeks
      ...Array.from({ length: 30 }, (_, i) => day(`2026-10-${String(i + 2).padStart(2, '0')}`, 3_000, 0)),
      day('2026-11-01', 3_000, 2_000),
    ]);
    expect(w.fromDate).toBe('2026-10-31'); // the day before the dense day, counted in the price
    expect(w.expectedCalls).toBe(1 + Math.ceil(6_000 / 100));
  });

  it('reads a few candidates by GET when that is cheaper than any page count; none: no calls', () => {
    expect(chooseListWindow([day('2026-11-20', 50_000, 3)])).toEqual({
      fromDate: null,
      readBefore: null,
      expectedCalls: 3,
    });
    expect(chooseListWindow([])).toEqual({ fromDate: null, readBefore: null, expectedCalls: 0 });
  });
});
