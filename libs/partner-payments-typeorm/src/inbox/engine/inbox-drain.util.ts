import type { InboxDrainOptions, InboxDrainSummary } from '@partner-payments/nestjs/inbox';
import type { InboxBatchOutcome, InboxClaimOptions } from './inbox-engine.types';

/**
 * PartnerTypeOrmInboxStore.drain: each batch is claimed and processed in one transaction,
 * `concurrency` batches at once (replicas, and batches here, take different entries: FOR UPDATE
 * SKIP LOCKED on PostgreSQL). A worker ends at its first claim with nothing the run has not tried
 * (what another batch holds is not claimable); a claim that fails ends the run (its entries stay
 * due) and its error is thrown once the other batches have ended.
 */
export async function drainByClaims<T>(
  claim: (options: InboxClaimOptions) => Promise<InboxBatchOutcome<T>[]>,
  options: InboxDrainOptions,
): Promise<InboxDrainSummary> {
  const request = {
    limit: Math.max(1, options.limit ?? 100),
    minAgeMs: options.minAgeMs ?? 10_000,
    now: new Date(),
  };
  const tried = new Set<string>();
  /**
   * Failed in this run and possibly due again before request.now: excluded from its later claims
   * (processed ones are not due any more). Only those: every claim sends the whole list, so
   * listing every failure would make a drain through thousands of them (a handler down) quadratic.
   */
  const failed: string[] = [];
  // Only a retry time after `now` leaves an entry out; null (dead) is listed too, in case a store
  // meant "not scheduled" by it.
  const dueAgainInRun = (o: InboxBatchOutcome<T>): boolean =>
    o.outcome === 'failed' && !(o.retryAt instanceof Date && o.retryAt.getTime() > request.now.getTime());
  const summary: InboxDrainSummary = { processed: 0, failed: 0, skipped: 0, batches: 0 };
  let stop = false;
  let failure: { error: unknown } | null = null;
  const worker = async (): Promise<void> => {
    while (!stop && !options.signal?.aborted) {
      const outcomes = await claim({ ...request, excludeEventIds: [...failed] });
      if (outcomes.every((o) => tried.has(o.eventId))) break; // nothing new, or nothing at all
      summary.batches += 1;
      for (const o of outcomes) {
        tried.add(o.eventId);
        if (dueAgainInRun(o)) failed.push(o.eventId);
        summary[o.outcome] += 1;
      }
      if (!options.untilEmpty) break;
    }
  };
  const workers = options.untilEmpty ? Math.max(1, options.concurrency ?? 1) : 1;
  await Promise.all(
    Array.from({ length: workers }, () =>
      worker().catch((error: unknown) => {
        stop = true;
        failure ??= { error };
      }),
    ),
  );
  if (failure) throw (failure as { error: unknown }).error;
  return summary;
}
