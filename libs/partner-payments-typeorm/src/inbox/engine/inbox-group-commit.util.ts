import type { InboxEventInput, InboxRecordResult } from '@partner-payments/nestjs/inbox';

/** A store that can record a batch in one transaction. */
export interface BatchRecordingStore {
  /** One transaction; 'new' or 'duplicate' for each event, in order, once it committed. */
  recordBatch(events: readonly InboxEventInput[]): Promise<InboxRecordResult[]>;
}

/** How deliveries are gathered into one inbox transaction (`inbox.maxRecordRows`, `inbox.maxWaitMs`). */
export interface InboxGroupCommitOptions {
  /** Most deliveries in one transaction. */
  maxRows: number;
  /**
   * How long a delivery that finds no commit in flight waits for others to join it. 0: it leaves
   * at the end of the current event-loop turn, so a lone delivery is not delayed; deliveries that
   * arrive while a commit is in flight wait for that commit (never longer) and share the next.
   */
  maxWaitMs: number;
}

interface Waiter {
  event: InboxEventInput;
  resolve(result: InboxRecordResult): void;
  reject(error: unknown): void;
}

/**
 * Group commit for PartnerTypeOrmInboxStore: concurrent `record` calls share one `recordBatch`
 * transaction, so a burst costs one commit (one fsync) per batch instead of one per delivery.
 * At most one batch is in flight; what arrives meanwhile forms the next one, up to `maxRows`.
 * Each caller's promise settles only when the transaction holding its row has committed (spec
 * 6.1.4: the 2xx follows the store, never precedes it), or rejects with the batch's error.
 *
 * The same event id twice in one batch is sent to the store once: the first caller gets the
 * store's answer, the others 'duplicate' (one row, as two racing single inserts would give).
 */
export class InboxGroupCommit {
  private queue: Waiter[] = [];
  private flushing = false;
  /** The flush scheduled for the queue (none while a commit is in flight). */
  private timer: { cancel(): void } | null = null;

  constructor(
    private readonly store: BatchRecordingStore,
    private readonly options: InboxGroupCommitOptions,
  ) {}

  record(event: InboxEventInput): Promise<InboxRecordResult> {
    return new Promise<InboxRecordResult>((resolve, reject) => {
      this.queue.push({ event, resolve, reject });
      this.schedule();
    });
  }

  /** Rows waiting for a transaction (not counting the one in flight). For tests and diagnostics. */
  get waiting(): number {
    return this.queue.length;
  }

  private schedule(): void {
    if (this.flushing) return; // the commit in flight flushes the queue when it is done
    const full = this.queue.length >= this.options.maxRows;
    if (this.timer && !full) return;
    this.timer?.cancel();
    const flush = () => {
      this.timer = null;
      void this.flush();
    };
    if (full || this.options.maxWaitMs <= 0) {
      const immediate = setImmediate(flush);
      this.timer = { cancel: () => clearImmediate(immediate) };
    } else {
      const timeout = setTimeout(flush, this.options.maxWaitMs);
      this.timer = { cancel: () => clearTimeout(timeout) };
    }
  }

  private async flush(): Promise<void> {
    this.flushing = true;
    try {
      while (this.queue.length > 0) {
        const batch = this.queue.splice(0, this.options.maxRows);
        await this.commit(batch);
      }
    } finally {
      this.flushing = false;
    }
  }

  private async commit(batch: Waiter[]): Promise<void> {
    const first = new Map<string, number>(); // eventId -> index in `events`
    const events: InboxEventInput[] = [];
    for (const waiter of batch) {
      if (first.has(waiter.event.eventId)) continue;
      first.set(waiter.event.eventId, events.length);
      events.push(waiter.event);
    }
    let results: InboxRecordResult[];
    try {
      results = await this.store.recordBatch(events);
      if (results.length !== events.length) {
        throw new Error(`inbox recordBatch answered ${results.length} results for ${events.length} events`);
      }
    } catch (error) {
      for (const waiter of batch) waiter.reject(error);
      return;
    }
    const answered = new Set<string>();
    for (const waiter of batch) {
      const id = waiter.event.eventId;
      if (answered.has(id)) {
        waiter.resolve('duplicate');
        continue;
      }
      answered.add(id);
      waiter.resolve(results[first.get(id) as number]);
    }
  }
}
