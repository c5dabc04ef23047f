import type { InboxEntry, PartnerInboxStore } from './inbox.store';
import type { InboxProcessor, PartnerProcessOutcome } from './inbox-processor.util';

export interface PartnerProcessPendingOptions {
  /** Entries read (or claimed) from the inbox per batch. Default 100. */
  limit?: number;
  /** Never-processed entries younger than this are left to the delivery that recorded them. Default 10 s. */
  minAgeMs?: number;
  /**
   * Entries processed at once. Default 1 (one after another). With a store that claims (claimDue),
   * batches claimed at once: a batch runs its entries one after another in its transaction.
   */
  concurrency?: number;
  /** Read batch after batch until nothing due is left that this run has not tried. Default false: one batch. */
  untilEmpty?: boolean;
  /** Checked before each batch: an aborted run stops there (e.g. at shutdown). */
  signal?: AbortSignal;
}

export interface PartnerProcessPendingSummary {
  processed: number;
  failed: number;
  /** Entries handled elsewhere meanwhile (in flight here, or found processed or held by the store). */
  skipped: number;
  /** Batches that held entries to process. */
  batches: number;
}

export interface PendingReadDeps {
  inbox: PartnerInboxStore;
  redeliver(entry: InboxEntry): Promise<PartnerProcessOutcome>;
  /** True when this process is handling the entry, or finished it after `snapshotAt`. */
  busy(eventId: string, snapshotAt: number): boolean;
}

const emptySummary = (): PartnerProcessPendingSummary => ({
  processed: 0,
  failed: 0,
  skipped: 0,
  batches: 0,
});

/**
 * processPending through `pending()` (stores without claimDue): read a batch, redeliver each entry
 * (`concurrency` at once), skipping those this process is handling (the snapshot is stale).
 */
export async function readPending(
  deps: PendingReadDeps,
  options: PartnerProcessPendingOptions,
): Promise<PartnerProcessPendingSummary> {
  const limit = Math.max(1, options.limit ?? 100);
  const concurrency = Math.max(1, options.concurrency ?? 1);
  const now = new Date();
  const tried = new Set<string>();
  const summary = emptySummary();
  do {
    if (options.signal?.aborted) break;
    const snapshotAt = Date.now();
    const entries = (await deps.inbox.pending({ limit, minAgeMs: options.minAgeMs ?? 10_000, now })).filter(
      (entry) => !tried.has(entry.eventId),
    );
    if (entries.length === 0) break;
    summary.batches += 1;
    for (const entry of entries) tried.add(entry.eventId);
    const queue = [...entries];
    const worker = async (): Promise<void> => {
      for (let entry = queue.shift(); entry; entry = queue.shift()) {
        if (deps.busy(entry.eventId, snapshotAt)) {
          summary.skipped += 1; // being (or just) processed here: the snapshot is stale
          continue;
        }
        summary[(await deps.redeliver(entry)).outcome] += 1;
      }
    };
    await Promise.all(Array.from({ length: Math.min(concurrency, entries.length) }, worker));
  } while (options.untilEmpty);
  return summary;
}

/**
 * processPending through a store that claims: each batch is claimed and processed in
 * one transaction, `concurrency` batches at once (replicas, and batches here, take different
 * entries). A worker ends at its first claim with nothing the run has not tried (what another
 * batch holds is not claimable); a claim that fails ends the run (its entries stay due) and its
 * error is thrown once the other batches have ended.
 */
export async function claimPending(
  processor: InboxProcessor,
  options: PartnerProcessPendingOptions,
): Promise<PartnerProcessPendingSummary> {
  const request = {
    limit: Math.max(1, options.limit ?? 100),
    minAgeMs: options.minAgeMs ?? 10_000,
    now: new Date(),
  };
  const tried = new Set<string>();
  /**
   * Failed in this run and possibly due again before request.now: excluded from its later claims
   * (processed ones are not due any more). Only those: every claim sends the whole list, so a drain
   * through thousands of failures (a handler down) listing each sent a growing list with every
   * claim, quadratic in the failures.
   */
  const failed: string[] = [];
  // Only a retry time after `now` leaves an entry out. null (dead) is listed too: a store that
  // passed "not scheduled" through as null would otherwise have its entry retried within the run.
  const dueAgainInRun = (o: PartnerProcessOutcome): boolean =>
    o.outcome === 'failed' && !(o.retryAt instanceof Date && o.retryAt.getTime() > request.now.getTime());
  const summary = emptySummary();
  let stop = false;
  let failure: { error: unknown } | null = null;
  const worker = async (): Promise<void> => {
    while (!stop && !options.signal?.aborted) {
      const outcomes = await processor.claim({ ...request, excludeEventIds: [...failed] });
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
