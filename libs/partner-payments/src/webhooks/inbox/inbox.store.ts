/**
 * The webhook inbox: where an event is recorded before the delivery is acknowledged.
 * Deliveries are never retried (spec 6.1.4), so "persist, then acknowledge, then process".
 */
export type PartnerEnvelopeKind = 'flat' | 'v2';

export interface InboxEventInput {
  /**
   * data.event_id, the de-duplication key (spec 6.1.4). Any JavaScript string the JSON holds: any
   * length, U+0000 and lone surrogates (`\ud800` escapes) included. A store compares ids exactly:
   * a lossy encoding (UTF-8 turns lone surrogates into U+FFFD) would merge different events.
   */
  eventId: string;
  /** The `event` field as received, e.g. 'payout.completed'. */
  name: string;
  envelope: PartnerEnvelopeKind;
  /** The exact bytes received, as text: valid UTF-8 only (the service refuses other bodies), so
   * Buffer.from(rawBody, "utf8") gives back the signed bytes, a leading BOM included. */
  rawBody: string;
  receivedAt: Date;
}

export type InboxEntryState = 'pending' | 'processed' | 'failed' | 'dead';

export interface InboxEntry extends InboxEventInput {
  state: InboxEntryState;
  attempts: number;
  lastError: string | null;
  processedAt: Date | null;
  /** When a failed entry may be tried again; null when not scheduled. */
  nextAttemptAt: Date | null;
}

/** 'new' when this call stored the event; 'duplicate' when an entry with that eventId existed. */
export type InboxRecordResult = 'new' | 'duplicate';

export interface InboxPendingOptions {
  /** At most this many entries. */
  limit?: number;
  /** The time to judge "due" against. Default: now. */
  now?: Date;
  /**
   * Skip never-processed entries younger than this: the delivery that recorded them is most likely
   * processing them right now, perhaps on another replica. Failed entries follow nextAttemptAt.
   * Default 0 in the stores; PartnerWebhookProcessingService.processPending passes 10 s.
   */
  minAgeMs?: number;
}

export interface PartnerInboxStore {
  /**
   * Stores the event unless its eventId is known. Must be atomic under concurrent deliveries.
   * Resolve only once the event is stored (the 2xx follows); throw when it could not be: the
   * delivery is then answered 500 (PartnerWebhookInboxError), never acknowledged (spec 6.1.4).
   */
  record(event: InboxEventInput): Promise<InboxRecordResult>;
  markProcessed(eventId: string): Promise<void>;
  /**
   * Counts an attempt, keeps the error, schedules the next attempt (or marks dead past the limit).
   * Must leave an entry that is already processed as it is: the failure of one attempt is recorded
   * after that attempt rolled back, and a redelivery may have processed the entry in between
   * (marking it failed again would run its handlers a second time, spec 6.1.4).
   */
  markFailed(eventId: string, error: string): Promise<void>;
  /** Entries to (re)process now: never processed, or failed and due. Oldest first. */
  pending(options?: InboxPendingOptions): Promise<InboxEntry[]>;
  /**
   * Optional unit of work: when present, the dispatcher runs the handlers and markProcessed
   * inside it, so a store backed by a database can make the handlers' writes and the inbox mark
   * one transaction. If `work` throws, nothing of it is kept and the dispatcher calls markFailed.
   * A store that finds the entry already processed when it gets hold of it (another replica's
   * delivery or redelivery got there first) answers `{ ran: false }` without running `work`.
   */
  runProcessing?<T>(eventId: string, work: () => Promise<T>): Promise<InboxProcessingResult<T>>;
  /**
   * Optional group commit: stores these events in ONE transaction (one commit, one
   * fsync) and resolves, once it committed, with 'new' or 'duplicate' for each event, in order.
   * Their eventIds are distinct (the service settles a repeat within one batch itself). Reject
   * when the transaction did not commit: none of them is kept, and each delivery is answered 500.
   * When present, PartnerWebhookIngestService records through it: deliveries that arrive while a batch
   * is being committed share the next one (`webhooks.batching`).
   */
  recordBatch?(events: readonly InboxEventInput[]): Promise<InboxRecordResult[]>;
  /**
   * Optional batched unit of work: ONE transaction for these entries, `work` run for
   * each in turn. An entry already processed, or held by another transaction (another replica:
   * FOR UPDATE SKIP LOCKED), is skipped without running `work`. An entry whose `work` resolves is
   * marked processed in that transaction. When a `work` throws, the store either rolls that
   * entry back to a savepoint and marks it failed (attempt counted, next attempt scheduled), or
   * lets the error through so the whole transaction rolls back (cheaper: no savepoint per entry);
   * the service then runs each entry of the batch alone, so one failing entry never undoes the
   * others. Rejects when the transaction did not commit (nothing of it kept). When present, the
   * service processes fresh deliveries through it, `work` running the handlers (markProcessed is
   * the store's part here).
   */
  processBatch?<T>(
    eventIds: readonly string[],
    work: (eventId: string) => Promise<T>,
  ): Promise<InboxBatchOutcome<T>[]>;
  /**
   * Optional claim: selects up to `options.limit` due entries as `pending` does (a
   * store may take the failed ones due again first) and processes them like processBatch, in one
   * transaction that holds them, so replicas calling it at once take different entries (FOR UPDATE SKIP LOCKED). An entry whose body cannot be read
   * is marked failed without running `work`. Resolves to [] when nothing is due. When present,
   * processPending drains through it.
   */
  claimDue?<T>(
    options: InboxClaimOptions,
    work: (entry: InboxEntry) => Promise<T>,
  ): Promise<InboxBatchOutcome<T>[]>;
}

export interface InboxClaimOptions extends InboxPendingOptions {
  /**
   * Entries not to claim whatever their state: those that failed earlier in the same run and are
   * due again before its `now` (a zero backoff, or a store clock behind the caller's), so a run
   * tries an entry at most once. A failure whose outcome carries a `retryAt` after `now` is not
   * listed: the store's own due condition leaves it out.
   */
  excludeEventIds?: readonly string[];
}

/** One entry's outcome in processBatch / claimDue. `error` is what the store recorded for it. */
export type InboxBatchOutcome<T> =
  | { eventId: string; outcome: 'processed'; value: T }
  | { eventId: string; outcome: 'skipped' }
  | {
      eventId: string;
      outcome: 'failed';
      error: string;
      /**
       * When the store makes the entry due again (the `next_attempt_at` it compares with
       * `InboxClaimOptions.now`), or null when it will not (dead). A draining run excludes the
       * entry from its later claims by id unless this is a time after the run's `now` (null and
       * absent are listed), so a drain through many failures sends short claims (excludeEventIds).
       */
      retryAt?: Date | null;
    };

/** What runProcessing did: ran the work (and kept what it did), or skipped an entry already processed. */
export type InboxProcessingResult<T> = { ran: true; value: T } | { ran: false };
