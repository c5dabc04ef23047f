import { AsyncResource } from 'node:async_hooks';
import { Logger } from '@nestjs/common';
import type { InboxProcessOutcome } from '@partner-payments/nestjs/inbox';
import type { InboxBatchOutcome } from './inbox-engine.types';

/** What the processor needs of the store: one transaction for a batch, and a failure on its own. */
export interface InboxProcessorStore {
  processBatch<T>(
    eventIds: readonly string[],
    work: (eventId: string) => Promise<T>,
  ): Promise<InboxBatchOutcome<T>[]>;
  /** Records one failed attempt; resolves to when the entry is due again (null: dead, or not recorded). */
  markFailed(eventId: string, error: string): Promise<Date | null>;
  /** Runs `work` through `within` inside the batch's transaction (PartnerUnitOfWork.keepScope). */
  keepScope<T>(within: (work: () => T) => T, work: () => T): T;
  /** Whether the caller is inside a unit of work (PartnerUnitOfWork.inUnitOfWork). */
  inUnitOfWork(): boolean;
  /** One entry alone in the caller's unit of work, a failing `work` undone and marked failed there. */
  processInScope<T>(eventId: string, work: (eventId: string) => Promise<T>): Promise<InboxBatchOutcome<T>>;
}

export interface InboxProcessorLimits {
  /** Most entries in one processing transaction (`inbox.maxProcessRows`). */
  maxProcessRows: number;
  /** Processing transactions at once (`inbox.processConcurrency`). */
  processConcurrency: number;
}

interface Queued {
  eventId: string;
  handle: () => Promise<unknown>;
  /** Runs work in the async context of the call that queued the entry (its trace span and log context). */
  within: (work: () => Promise<unknown>) => Promise<unknown>;
  done(outcome: InboxProcessOutcome<unknown>): void;
}

/** The first entry of a batch whose handle threw, and what it threw. */
interface HandlerFailure {
  eventId?: string;
  error?: unknown;
}

const messageOf = (error: unknown): string => (error instanceof Error ? error.message : String(error));

/**
 * PartnerTypeOrmInboxStore.process: fresh entries queue here and run in batches, one transaction
 * per batch, so processing keeps up with a group-committed ingest instead of paying one commit
 * (one fsync) per event. Up to `processConcurrency` batches run at once; what arrives meanwhile
 * forms the next (up to `maxProcessRows`). A batch whose transaction fails as a whole is run again
 * entry by entry: the entry whose handle threw fails without running again, every other entry
 * runs alone, so one that breaks its transaction fails alone and the others are processed.
 *
 * A batch runs in the context of whichever call started its pump; each handle runs in its own
 * caller's context instead (AsyncResource.bind), so its spans and log lines carry its event, with
 * the batch's transaction kept in force (keepScope) so its writes join it.
 */
export class InboxProcessor {
  private queue: Queued[] = [];
  /** The ids in `queue`: one entry twice in a batch would run its handlers twice in one transaction. */
  private readonly queued = new Set<string>();
  /** Batches being processed (at most `processConcurrency`). */
  private pumps = 0;
  private readonly logger = new Logger('PartnerInbox');

  constructor(
    private readonly store: InboxProcessorStore,
    private readonly limits: InboxProcessorLimits,
  ) {}

  /** Settles (never rejects) once the entry's unit of work ended. */
  process<T>(eventId: string, handle: () => Promise<T>): Promise<InboxProcessOutcome<T>> {
    // A shared batch would run in this caller's transaction (its rollback undoing the others'
    // processing), or on SQLite wait for the queue this caller holds while it waits for the batch.
    if (this.store.inUnitOfWork()) {
      return this.store.processInScope(eventId, () => handle()).then(withoutId);
    }
    return new Promise((done) => {
      // Already waiting for a batch: that call runs it (PartnerInboxStore.process: held by another run).
      if (this.queued.has(eventId)) return done({ outcome: 'skipped' });
      this.queued.add(eventId);
      const within = AsyncResource.bind((work: () => Promise<unknown>) => work());
      this.queue.push({ eventId, handle, within, done: done as Queued['done'] });
      if (this.pumps >= this.limits.processConcurrency) return; // a running pump takes it next
      this.pumps += 1;
      // The batch starts on the next turn, so what arrives in this one shares its transaction.
      setImmediate(() => void this.pump());
    });
  }

  private async pump(): Promise<void> {
    try {
      while (this.queue.length > 0) {
        const items = this.queue.splice(0, this.limits.maxProcessRows);
        for (const item of items) this.queued.delete(item.eventId);
        const threw: HandlerFailure = {};
        const together = await this.runBatch(items, threw).catch(() => null);
        if (together) {
          items.forEach((item, i) => item.done(together[i]));
          continue;
        }
        // The transaction failed as a whole (a handle threw, or the commit failed).
        for (const item of items) {
          item.done(
            item.eventId === threw.eventId
              ? await this.recordFailure(item.eventId, threw.error)
              : await this.runAlone(item),
          );
        }
      }
    } finally {
      this.pumps -= 1;
    }
  }

  /** `threw`: filled with the first entry whose handle threw, if any. */
  private async runBatch(
    items: readonly Queued[],
    threw: HandlerFailure = {},
  ): Promise<InboxProcessOutcome<unknown>[]> {
    const byId = new Map(items.map((i) => [i.eventId, i]));
    const outcomes = await this.store.processBatch(
      items.map((i) => i.eventId),
      (eventId: string) => {
        const item = byId.get(eventId) as Queued;
        return this.store.keepScope(item.within, item.handle).catch((error: unknown) => {
          if (threw.eventId === undefined) Object.assign(threw, { eventId, error });
          throw error;
        });
      },
    );
    if (outcomes.length !== items.length) {
      throw new Error(`inbox processBatch answered ${outcomes.length} outcomes for ${items.length} entries`);
    }
    return outcomes.map(withoutId);
  }

  /** One entry in a transaction of its own; a failure is recorded in a write of its own. */
  private async runAlone(item: Queued): Promise<InboxProcessOutcome<unknown>> {
    try {
      return (await this.runBatch([item]))[0];
    } catch (error) {
      return this.recordFailure(item.eventId, error);
    }
  }

  /** Marks the entry failed (attempt counted, backoff); a failing mark leaves it due as it is. */
  private async recordFailure(eventId: string, error: unknown): Promise<InboxProcessOutcome<unknown>> {
    const message = messageOf(error);
    const retryAt = await this.store.markFailed(eventId, message).catch((markError: unknown) => {
      // Left as it was (pending, or failed and due): the next drain tries it again. undefined,
      // not null: null would say dead (InboxProcessOutcome).
      this.logger.error(`Partner webhook inbox markFailed(${eventId}) failed: ${messageOf(markError)}`);
      return undefined;
    });
    return { outcome: 'failed', error: message, retryAt };
  }
}

function withoutId<T>(o: InboxBatchOutcome<T>): InboxProcessOutcome<T> {
  if (o.outcome === 'processed') return { outcome: 'processed', value: o.value };
  if (o.outcome === 'skipped') return { outcome: 'skipped' };
  return { outcome: 'failed', error: o.error, retryAt: o.retryAt };
}
