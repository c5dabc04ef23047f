/**
 * The webhook inbox contract: where an event is recorded before the delivery is acknowledged, and
 * how it is then processed. Deliveries are never retried (spec 6.1.4), so "persist, then
 * acknowledge, then process". Three methods, all required: `@partner-payments/typeorm` implements
 * them on PostgreSQL and SQLite (group commit, batched processing, claims); the module's in-memory
 * store implements them simply (not durable). Bring another database by implementing them.
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

/** A stored event as `drain` hands it over. */
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

/** What `process` did with one entry. */
export type InboxProcessOutcome<T> =
  | { outcome: 'processed'; value: T }
  /**
   * Already processed, held by another processing run (another replica), or unknown to the store
   * (never recorded, or no longer kept): `handle` not run.
   */
  | { outcome: 'skipped' }
  /** `handle` threw (or the unit of work did not commit): attempt counted, error kept. */
  | {
      outcome: 'failed';
      error: string;
      /**
       * When the entry is due again; null when it will not be (dead, processed meanwhile by
       * another run, or gone from the store); undefined when the failure could not be recorded:
       * the entry stays as it was, due, and a drain tries it again.
       */
      retryAt: Date | null | undefined;
    };

export interface InboxDrainOptions {
  /** Entries taken per batch. Default 100. */
  limit?: number;
  /**
   * Never-processed entries younger than this are left alone: the delivery that recorded them is
   * most likely processing them right now, perhaps on another replica. Default 10 s.
   */
  minAgeMs?: number;
  /** Batches processed at once. Default 1. */
  concurrency?: number;
  /** Batch after batch until nothing due is left that this run has not tried. Default false: one batch. */
  untilEmpty?: boolean;
  /** Checked before each batch: an aborted run stops there (e.g. at shutdown). */
  signal?: AbortSignal;
}

export interface InboxDrainSummary {
  processed: number;
  failed: number;
  /** Entries found processed, or held elsewhere, when their turn came: `handle` not run. */
  skipped: number;
  /** Batches that held entries to process. */
  batches: number;
}

export interface PartnerInboxStore {
  /**
   * Stores the event unless its eventId is known; atomic under concurrent deliveries (of two
   * racing calls with one eventId exactly one gets 'new'). Resolve only once the event is durably
   * stored (the 2xx follows); a store may gather concurrent calls into one commit. Throw when it
   * could not be stored: the delivery is then answered 500, never acknowledged (spec 6.1.4).
   */
  record(event: InboxEventInput): Promise<InboxRecordResult>;
  /**
   * Runs `handle` for a recorded entry once and marks the entry processed, in the same unit of
   * work when the store can (the handlers' writes and the mark commit together, or neither). An
   * entry already processed, or held by another run, answers 'skipped' without running `handle`;
   * so does an id the store does not hold (never recorded, or no longer kept): a store processes
   * only what it recorded, so a processed answer always means a processed entry.
   * When `handle` throws, nothing of the unit of work is kept and the failure is recorded: the
   * attempt counted, the next one scheduled with backoff, or the entry left `dead` past the limit;
   * a failure never turns a processed entry back. Never rejects for `handle`'s error. `handle`
   * must run in the caller's async context (its trace span and log context): a store that batches
   * binds it (AsyncResource.bind) before queueing it.
   */
  process<T>(eventId: string, handle: () => Promise<T>): Promise<InboxProcessOutcome<T>>;
  /**
   * Processes what is due, oldest first, as `process` does each entry: failed entries whose next
   * attempt has come, and never-processed ones older than `minAgeMs`. "Due" is judged against the
   * run's start and an entry is tried at most once per run, so a run through failing entries
   * ends and never spins. Replicas may drain at once; a store takes care that they do not run one
   * entry side by side. An entry whose stored body cannot be read fails without `handle`.
   */
  drain<T>(
    handle: (entry: InboxEntry) => Promise<T>,
    options?: InboxDrainOptions,
  ): Promise<InboxDrainSummary>;
}
