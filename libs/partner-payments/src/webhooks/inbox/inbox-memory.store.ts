import { Logger, type LoggerService } from '@nestjs/common';
import type {
  InboxDrainOptions,
  InboxDrainSummary,
  InboxEntry,
  InboxEventInput,
  InboxProcessOutcome,
  InboxRecordResult,
  PartnerInboxStore,
} from './inbox.store';

export interface PartnerInMemoryInboxStoreOptions {
  /** Most entries kept; beyond it the oldest finished (processed/dead) entries go first. Default 10_000. */
  maxEntries?: number;
  /** Attempts before a failing entry is marked dead. Default 5. */
  maxAttempts?: number;
  /** Delay before retry n (1-based) of a failed entry. Default 1 s, 5 s, 30 s, 2 min, 10 min. */
  retryDelaysMs?: readonly number[];
  /** Clock, for tests. */
  now?: () => Date;
  /**
   * Where an unfinished entry dropped because the store is full is reported (one error each).
   * Default: a Nest Logger with context 'PartnerWebhooks'; the module passes its own logger.
   */
  logger?: LoggerService;
}

const DEFAULT_RETRY_DELAYS_MS = [1_000, 5_000, 30_000, 120_000, 600_000];

/**
 * The default inbox: bounded, in-process, not durable. Fine for tests and small apps; a restart
 * loses pending entries and the de-duplication memory, so production apps plug a database store
 * (`PartnerTypeOrmInboxStore` of @partner-payments/typeorm, on their own TypeORM DataSource)
 * through `inboxStore`.
 *
 * record() checks and inserts synchronously (no await in between), so two concurrent deliveries of
 * one event_id cannot both get 'new' (spec 6.1.4: de-duplicate on data.event_id).
 */
export class PartnerInMemoryInboxStore implements PartnerInboxStore {
  private readonly entries = new Map<string, InboxEntry>();
  private readonly maxEntries: number;
  private readonly maxAttempts: number;
  private readonly retryDelaysMs: readonly number[];
  private readonly now: () => Date;
  private readonly logger: LoggerService;
  private evictedUnfinished = 0;
  /** Entries whose handlers are running here. */
  private readonly running = new Set<string>();

  constructor(options: PartnerInMemoryInboxStoreOptions = {}) {
    this.maxEntries = Math.max(1, options.maxEntries ?? 10_000);
    this.maxAttempts = Math.max(1, options.maxAttempts ?? 5);
    this.retryDelaysMs = options.retryDelaysMs?.length ? options.retryDelaysMs : DEFAULT_RETRY_DELAYS_MS;
    this.now = options.now ?? (() => new Date());
    this.logger = options.logger ?? new Logger('PartnerWebhooks');
  }

  async record(event: InboxEventInput): Promise<InboxRecordResult> {
    if (this.entries.has(event.eventId)) return 'duplicate';
    this.entries.set(event.eventId, {
      ...event,
      state: 'pending',
      attempts: 0,
      lastError: null,
      processedAt: null,
      nextAttemptAt: null,
    });
    this.evict();
    return 'new';
  }

  /**
   * Runs `handle` unless the entry is unknown here (never recorded, or evicted), processed, or
   * being processed here (a drain and a redelivery racing it): those are skipped, as the TypeORM
   * store skips a row it cannot hold. Nothing is transactional in memory: the mark follows the
   * handlers.
   */
  async process<T>(eventId: string, handle: () => Promise<T>): Promise<InboxProcessOutcome<T>> {
    const entry = this.entries.get(eventId);
    if (!entry || entry.state === 'processed' || this.running.has(eventId)) return { outcome: 'skipped' };
    this.running.add(eventId);
    try {
      const value = await handle();
      entry.state = 'processed';
      entry.attempts += 1;
      entry.lastError = null;
      entry.processedAt = this.now();
      entry.nextAttemptAt = null;
      return { outcome: 'processed', value };
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      return { outcome: 'failed', error: message, retryAt: this.fail(entry, message) };
    } finally {
      this.running.delete(eventId);
    }
  }

  /** What is due at the run's start, batch by batch; each entry tried at most once a run. */
  async drain<T>(
    handle: (entry: InboxEntry) => Promise<T>,
    options: InboxDrainOptions = {},
  ): Promise<InboxDrainSummary> {
    const limit = Math.max(1, options.limit ?? 100);
    const concurrency = Math.max(1, options.concurrency ?? 1);
    const due = { now: this.now(), minAgeMs: options.minAgeMs ?? 10_000 };
    const tried = new Set<string>();
    const summary: InboxDrainSummary = { processed: 0, failed: 0, skipped: 0, batches: 0 };
    do {
      if (options.signal?.aborted) break;
      const batch = this.pending({ ...due, limit, exclude: tried });
      if (batch.length === 0) break;
      summary.batches += 1;
      for (const entry of batch) tried.add(entry.eventId);
      const worker = async (): Promise<void> => {
        for (let entry = batch.shift(); entry; entry = batch.shift()) {
          const now = this.entries.get(entry.eventId);
          // Taken by a delivery meanwhile (processed, or failed with a later attempt).
          if (!now || !this.isDue(now, due.now.getTime(), due.minAgeMs)) summary.skipped += 1;
          else summary[(await this.process(entry.eventId, () => handle({ ...now }))).outcome] += 1;
        }
      };
      await Promise.all(Array.from({ length: Math.min(concurrency, batch.length) }, worker));
    } while (options.untilEmpty);
    return summary;
  }

  /** Due entries (copies), oldest first. For tests and diagnostics. */
  pending(
    options: { now?: Date; minAgeMs?: number; limit?: number; exclude?: ReadonlySet<string> } = {},
  ): InboxEntry[] {
    const now = (options.now ?? this.now()).getTime();
    const due = [...this.entries.values()]
      .filter((e) => !options.exclude?.has(e.eventId) && this.isDue(e, now, options.minAgeMs ?? 0))
      .sort((a, b) => a.receivedAt.getTime() - b.receivedAt.getTime());
    return due.slice(0, Math.max(0, options.limit ?? due.length)).map((e) => ({ ...e }));
  }

  private isDue(e: InboxEntry, now: number, minAgeMs: number): boolean {
    if (this.running.has(e.eventId)) return false;
    if (e.state === 'pending') return e.receivedAt.getTime() <= now - minAgeMs;
    return e.state === 'failed' && (e.nextAttemptAt?.getTime() ?? 0) <= now;
  }

  /** Counts the attempt, keeps the error, schedules the next (or dead); returns when it is due. */
  private fail(entry: InboxEntry, error: string): Date | null {
    entry.attempts += 1;
    entry.lastError = error.slice(0, 2_000);
    if (entry.attempts >= this.maxAttempts) {
      entry.state = 'dead';
      entry.nextAttemptAt = null;
      return null;
    }
    entry.state = 'failed';
    const delay = this.retryDelaysMs[Math.min(entry.attempts - 1, this.retryDelaysMs.length - 1)];
    entry.nextAttemptAt = new Date(this.now().getTime() + delay);
    return entry.nextAttemptAt;
  }

  /** A copy of one entry, or undefined. For tests and diagnostics. */
  get(eventId: string): InboxEntry | undefined {
    const entry = this.entries.get(eventId);
    return entry ? { ...entry } : undefined;
  }

  get size(): number {
    return this.entries.size;
  }

  /** How many unfinished entries were dropped because the store was full of them (should stay 0). */
  get evictedUnfinishedCount(): number {
    return this.evictedUnfinished;
  }

  /** Drops the oldest finished entries first; only when none is finished, the oldest of any state. */
  private evict(): void {
    if (this.entries.size <= this.maxEntries) return;
    for (const [id, entry] of this.entries) {
      if (this.entries.size <= this.maxEntries) return;
      if (entry.state === 'processed' || entry.state === 'dead') this.entries.delete(id);
    }
    for (const [id, entry] of this.entries) {
      if (this.entries.size <= this.maxEntries) return;
      this.entries.delete(id);
      this.evictedUnfinished += 1;
      this.reportLost(entry);
    }
  }

  /**
   * An unfinished entry dropped is an acknowledged event that will never be processed, and the
   * partner does not redeliver (spec 6.1.4): said loudly, once per entry. Id and name only, never
   * the body.
   */
  private reportLost(entry: InboxEntry): void {
    try {
      this.logger.error(
        `Partner webhook ${entry.name} (${entry.eventId}) dropped from the full in-memory inbox ` +
          `(maxEntries ${this.maxEntries}, state ${entry.state}, ${entry.attempts} attempt(s)): it was ` +
          'acknowledged but never processed, and the partner does not redeliver it (spec 6.1.4). ' +
          'Use a durable inboxStore, or raise maxEntries.',
      );
    } catch {
      // A failing logger must not fail record(): the event that caused the eviction is stored.
    }
  }
}
