/** The engine's own shapes: how a batch of entries is claimed and what each entry came to. */

export interface InboxClaimOptions {
  /** At most this many entries. Default 100. */
  limit?: number;
  /** The time to judge "due" against. Default: now. */
  now?: Date;
  /** Skip never-processed entries younger than this (their delivery is processing them). Default 0. */
  minAgeMs?: number;
  /**
   * Entries not to claim whatever their state: those that failed earlier in the same run and are
   * due again before its `now` (a zero backoff, or a store clock behind the caller's), so a run
   * tries an entry at most once. A failure whose `retryAt` is after `now` is not listed: the due
   * condition leaves it out.
   */
  excludeEventIds?: readonly string[];
}

/** One entry's outcome in a processed or claimed batch. `error` is what the store recorded for it. */
export type InboxBatchOutcome<T> =
  | { eventId: string; outcome: 'processed'; value: T }
  | { eventId: string; outcome: 'skipped' }
  /** retryAt: the `next_attempt_at` written (compared with InboxClaimOptions.now); null when dead. */
  | { eventId: string; outcome: 'failed'; error: string; retryAt: Date | null };
