import type { LoggerService } from '@nestjs/common';
import type { PartnerWebhookObservation } from '../../observability/hooks.util';
import {
  captureWebhookContext,
  observeWebhookProcessing,
  traceInboxCall,
} from '../../observability/webhook-instrumentation.util';
import { parsePartnerEnvelope } from '../events/envelope.util';
import type { InboxBatchOutcome, InboxClaimOptions, InboxEntry, PartnerInboxStore } from './inbox.store';
import type { PartnerWebhookEvent } from '../events/partner-event.types';
import type { PartnerDispatchResult, PartnerWebhookDispatcher } from '../events/webhook-dispatcher.service';

export type PartnerProcessOutcome =
  | { outcome: 'processed'; eventId: string; dispatch: PartnerDispatchResult }
  /** The inbox found the entry processed already, or held by another replica: handlers not run. */
  | { outcome: 'skipped'; eventId: string }
  /** retryAt: as the store reported it (InboxBatchOutcome), when it did. */
  | { outcome: 'failed'; eventId: string; error: string; retryAt?: Date | null };

type AnyEvent = PartnerWebhookEvent<string, unknown>;
/** The first entry of a batch whose handlers threw, and what they threw. */
interface HandlerFailure {
  eventId?: string;
  error?: unknown;
}
/** Runs work in the async context of the delivery that queued it (its trace span and log context). */
type Within = <T>(work: () => T) => T;
interface Queued {
  event: AnyEvent;
  within?: Within;
}
const direct: Within = (work) => work();

/**
 * Runs the handlers of recorded inbox entries (PartnerWebhookProcessingService's runner).
 *
 * With a store that processes batches (processBatch), fresh entries queue here after
 * their answer and run in batches: one transaction per batch, one savepoint per entry, so
 * processing keeps up with a group-committed ingest instead of paying one commit (one fsync) per
 * event. Up to `processConcurrency` batches run at once; what arrives meanwhile forms the next
 * (up to `maxProcessRows`). A batch whose transaction fails as a whole is run again entry by
 * entry, so an entry that breaks its transaction fails alone and the others are processed.
 *
 * Otherwise each entry runs alone, in the store's runProcessing when it has one.
 */
export class InboxProcessor {
  private queue: Array<Queued & { done: (o: PartnerProcessOutcome) => void }> = [];
  /** Batches being processed (at most `processConcurrency`). */
  private pumps = 0;

  constructor(
    private readonly inbox: PartnerInboxStore,
    private readonly dispatcher: PartnerWebhookDispatcher,
    private readonly logger: LoggerService,
    private readonly limits: { maxProcessRows: number; processConcurrency: number },
    private readonly onEvent: ((event: PartnerWebhookObservation) => void) | null = null,
  ) {}

  /** Settles (never rejects) once the entry's handlers ran and their unit of work ended. */
  process(event: AnyEvent, deferred: boolean): Promise<PartnerProcessOutcome> {
    if (!this.inbox.processBatch) return this.processAlone(event, deferred);
    return new Promise((done) => {
      // A batch runs in the context of whichever delivery started its pump; each entry's handlers
      // run in their own delivery's trace and log context instead, so their spans and log lines carry their event
      // (one trace from receipt to the database write).
      const within = captureWebhookContext(event);
      this.queue.push({ event, within, done });
      if (this.pumps >= this.limits.processConcurrency) return; // a running pump takes it next
      this.pumps += 1;
      // Persist, ack, process: the 2xx goes out before the batch starts (provider-facts: answer fast).
      setImmediate(() => void this.pump());
    });
  }

  /**
   * One claimDue batch (processPending): parses each claimed body and runs its handlers. Rejects
   * when the store's transaction failed (nothing kept; the entries stay due).
   */
  async claim(options: InboxClaimOptions): Promise<PartnerProcessOutcome[]> {
    const inbox = this.inbox;
    if (!inbox.claimDue) throw new Error('the inbox store cannot claim entries (no claimDue)');
    const names = new Map<string, string>();
    const outcomes = await inbox.claimDue<PartnerDispatchResult>(options, (entry: InboxEntry) => {
      names.set(entry.eventId, entry.name);
      return this.observeRedelivery(storedEvent(entry));
    });
    return outcomes.map((o) => this.settle(o, names.get(o.eventId) ?? 'stored event'));
  }

  private async pump(): Promise<void> {
    try {
      while (this.queue.length > 0) {
        const items = this.queue.splice(0, this.limits.maxProcessRows);
        const threw: HandlerFailure = {};
        const together = await this.runBatch(items, threw).catch(() => null);
        if (together) {
          items.forEach((item, i) => item.done(together[i]));
          continue;
        }
        // The transaction failed as a whole (a handler threw and the store let it through, or the
        // commit failed): the entry whose handlers threw fails without running them again; every
        // other entry runs alone, so one that breaks the transaction fails alone.
        for (const item of items) {
          const alone = () =>
            item.event.eventId === threw.eventId
              ? this.recordFailure(item.event, threw.error)
              : this.processAlone(item.event, false);
          item.done(await (item.within ?? direct)(alone));
        }
      }
    } finally {
      this.pumps -= 1;
    }
  }

  /** `threw`: filled with the first entry whose handlers threw, if any. */
  private async runBatch(items: Queued[], threw: HandlerFailure = {}): Promise<PartnerProcessOutcome[]> {
    const inbox = this.inbox;
    if (!inbox.processBatch) throw new Error('the inbox store cannot process a batch (no processBatch)');
    const byId = new Map(items.map((i) => [i.event.eventId, i]));
    const outcomes = await inbox.processBatch<PartnerDispatchResult>(
      items.map((i) => i.event.eventId),
      (eventId: string) => {
        const item = byId.get(eventId) as Queued;
        return (item.within ?? direct)(() =>
          this.dispatcher.dispatch(item.event).catch((error: unknown) => {
            if (threw.eventId === undefined) Object.assign(threw, { eventId, error });
            throw error;
          }),
        );
      },
    );
    if (outcomes.length !== items.length) {
      throw new Error(`inbox processBatch answered ${outcomes.length} outcomes for ${items.length} entries`);
    }
    return outcomes.map((o) => this.settle(o, byId.get(o.eventId)?.event.name ?? 'event'));
  }

  /** One entry in its own unit of work: a batch of one, or the store's runProcessing, or bare. */
  private async processAlone(event: AnyEvent, deferred: boolean): Promise<PartnerProcessOutcome> {
    if (deferred) await new Promise<void>((resolve) => setImmediate(resolve));
    const work = async (): Promise<PartnerDispatchResult> => {
      const dispatched = await this.dispatcher.dispatch(event);
      await traceInboxCall('mark_processed', event.eventId, () => this.inbox.markProcessed(event.eventId));
      return dispatched;
    };
    try {
      if (this.inbox.processBatch) return (await this.runBatch([{ event }]))[0];
      const result = this.inbox.runProcessing
        ? await this.inbox.runProcessing(event.eventId, work)
        : { ran: true as const, value: await work() };
      if (!result.ran) return { outcome: 'skipped', eventId: event.eventId };
      return { outcome: 'processed', eventId: event.eventId, dispatch: result.value };
    } catch (error) {
      return this.recordFailure(event, error);
    }
  }

  /** Logs the failure and marks the entry failed (attempt counted, backoff) in its own write. */
  private async recordFailure(event: AnyEvent, error: unknown): Promise<PartnerProcessOutcome> {
    const message = error instanceof Error ? error.message : String(error);
    this.logFailure(event.name, event.eventId, message);
    await traceInboxCall('mark_failed', event.eventId, () =>
      this.inbox.markFailed(event.eventId, message),
    ).catch((markError: unknown) => {
      this.logger.error(`Partner webhook inbox markFailed(${event.eventId}) failed: ${String(markError)}`);
    });
    return { outcome: 'failed', eventId: event.eventId, error: message };
  }

  private settle(o: InboxBatchOutcome<PartnerDispatchResult>, name: string): PartnerProcessOutcome {
    if (o.outcome === 'processed') return { outcome: 'processed', eventId: o.eventId, dispatch: o.value };
    if (o.outcome === 'skipped') return { outcome: 'skipped', eventId: o.eventId };
    this.logFailure(name, o.eventId, o.error);
    const failed: PartnerProcessOutcome = { outcome: 'failed', eventId: o.eventId, error: o.error };
    return o.retryAt === undefined ? failed : { ...failed, retryAt: o.retryAt };
  }

  /**
   * A drained entry's handlers in span `partner.webhook process` (redelivery: its own trace), with
   * its log context and the processing hook. The outcome reported is the handlers': the batch's
   * commit comes later, and an entry whose savepoint or commit fails stays due and is tried again.
   */
  private async observeRedelivery(event: AnyEvent): Promise<PartnerDispatchResult> {
    let failure: unknown;
    let value: PartnerDispatchResult | undefined;
    const observed = await observeWebhookProcessing(this.onEvent, event, true, async () => {
      try {
        value = await this.dispatcher.dispatch(event);
        this.logger.debug?.(`Partner webhook ${event.name} (${event.eventId}) handlers ran (redelivery)`);
        return { outcome: 'processed' as const };
      } catch (error) {
        failure = error;
        return { outcome: 'failed' as const };
      }
    });
    if (observed.outcome === 'failed') throw failure;
    return value as PartnerDispatchResult;
  }

  private logFailure(name: string, eventId: string, message: string): void {
    this.logger.error(`Partner webhook ${name} (${eventId}) processing failed: ${message}`);
  }
}

/** A stored entry as an event; the stored key wins (it is what the inbox knows the entry by). */
export function storedEvent(entry: Pick<InboxEntry, 'eventId' | 'rawBody'>): AnyEvent {
  let event: AnyEvent;
  try {
    event = parsePartnerEnvelope(entry.rawBody);
  } catch (error) {
    throw new Error(`unparseable stored body: ${error instanceof Error ? error.message : String(error)}`);
  }
  return { ...event, eventId: entry.eventId };
}
