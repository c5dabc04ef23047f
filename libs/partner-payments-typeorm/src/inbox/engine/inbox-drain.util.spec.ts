import { drainByClaims } from './inbox-drain.util';
import type { InboxBatchOutcome, InboxClaimOptions } from './inbox-engine.types';

/**
 * A backlog behind a claim that behaves as the store's claimDue with a due condition on
 * `now`: pending entries first, then failed ones whose retry is due by the claim's `now`, minus
 * the excluded ids. `fail` names the entries whose handlers throw and the retry each gets (a
 * Date, or null: dead, or a store's "not scheduled").
 */
function backlog(size: number, fail: Map<string, Date | null>) {
  const pending = Array.from({ length: size }, (_, i) => `e${String(i).padStart(4, '0')}`);
  const failed = new Map<string, Date | null>();
  const attempts = new Map<string, number>();
  const excludes: number[][] = [];
  const claim = async (options: InboxClaimOptions): Promise<Array<InboxBatchOutcome<unknown>>> => {
    const exclude = new Set(options.excludeEventIds ?? []);
    excludes.push([exclude.size]);
    const now = (options.now as Date).getTime();
    const dueAgain = [...failed]
      .filter(([id, at]) => !exclude.has(id) && at !== null && at.getTime() <= now)
      .map(([id]) => id);
    const ids = [...dueAgain, ...pending.filter((id) => !exclude.has(id))].slice(0, options.limit);
    return ids.map((eventId) => {
      attempts.set(eventId, (attempts.get(eventId) ?? 0) + 1);
      const at = pending.indexOf(eventId);
      if (at >= 0) pending.splice(at, 1);
      if (!fail.has(eventId)) {
        failed.delete(eventId);
        return { outcome: 'processed', eventId, value: undefined };
      }
      const retryAt = fail.get(eventId) as Date | null;
      failed.set(eventId, retryAt);
      return { outcome: 'failed', eventId, error: 'handler down', retryAt };
    });
  };
  return { claim, attempts, excludes: () => excludes.flat() };
}

describe('drainByClaims: what a drain excludes from its claims', () => {
  const later = new Date(Date.now() + 30_000);

  it('does not list failures the store retries after the run started: every claim stays empty of ids', async () => {
    // A handler down for a third of a backlog: 100 failures, each retried 30 s later.
    const fail = new Map(
      Array.from({ length: 100 }, (_, i) => [`e${String(i * 3).padStart(4, '0')}`, later]),
    );
    const { claim, attempts, excludes } = backlog(300, fail);
    const summary = await drainByClaims(claim, { limit: 25, minAgeMs: 0, untilEmpty: true });
    expect(summary).toMatchObject({ processed: 200, failed: 100, skipped: 0 });
    expect(Math.max(...excludes())).toBe(0);
    expect([...attempts.values()].every((n) => n === 1)).toBe(true);
  });

  it('lists a failure that may be due again within the run (zero backoff, dead), so it is tried once', async () => {
    const past = new Date(Date.now() - 60_000);
    const fail = new Map<string, Date | null>([
      ['e0001', past],
      ['e0003', null],
      ['e0004', later],
    ]);
    const { claim, attempts, excludes } = backlog(40, fail);
    const summary = await drainByClaims(claim, { limit: 10, minAgeMs: 0, untilEmpty: true });
    expect(summary).toMatchObject({ processed: 37, failed: 3 });
    for (const id of fail.keys()) expect(attempts.get(id)).toBe(1);
    // All but e0004, whose retry is after the run's now. Dead (null) is listed all the same, in
    // case a store meant "not scheduled" by it.
    expect(Math.max(...excludes())).toBe(2);
  });
});
