import { Inject, Injectable, type OnApplicationShutdown } from '@nestjs/common';
import { observeWebhookProcessing } from '../observability/webhook-instrumentation.util';
import { PARTNER_INBOX_STORE, PARTNER_WEBHOOK_CONFIG } from '../partner-payments.constants';
import {
  claimPending,
  readPending,
  type PartnerProcessPendingOptions,
  type PartnerProcessPendingSummary,
} from './inbox/inbox-pending.util';
import { InboxProcessor, storedEvent, type PartnerProcessOutcome } from './inbox/inbox-processor.util';
import type { InboxEntry, PartnerInboxStore } from './inbox/inbox.store';
import type { PartnerWebhookEvent } from './events/partner-event.types';
import { type PartnerWebhookConfig } from './webhook.config';
import { PartnerWebhookDispatcher } from './events/webhook-dispatcher.service';
import { MapCap } from './map-cap.util';

export type { PartnerProcessOutcome, PartnerProcessPendingOptions, PartnerProcessPendingSummary };

/**
 * The processing half of the webhook pipeline: runs the handlers of recorded events (after the
 * answer, spec 6.1.4), re-runs stored entries (redeliver) and drains what is due (processPending).
 */
@Injectable()
export class PartnerWebhookProcessingService implements OnApplicationShutdown {
  private readonly inFlight = new Map<string, Promise<PartnerProcessOutcome>>();
  /** eventId -> when its processing last finished here; lets processPending skip stale snapshots. */
  private readonly finishedAt = new Map<string, number>();
  private readonly finishedCap = new MapCap(this.finishedAt, 10_000);
  /** Runs the handlers: in batches when the store can process a batch, else one by one. */
  private readonly processor: InboxProcessor;
  /** Deliveries waiting for room in the backlog (roomToProcess), oldest first. */
  private readonly roomWaiters: Array<() => void> = [];

  constructor(
    @Inject(PARTNER_WEBHOOK_CONFIG) private readonly config: PartnerWebhookConfig,
    @Inject(PARTNER_INBOX_STORE) private readonly inbox: PartnerInboxStore,
    dispatcher: PartnerWebhookDispatcher,
  ) {
    this.processor = new InboxProcessor(inbox, dispatcher, config.logger, config.batching, config.onEvent);
  }

  /** Re-runs the handlers of a stored entry (signature was checked on receipt). For the retry cron. */
  async redeliver(entry: Pick<InboxEntry, 'eventId' | 'rawBody'>): Promise<PartnerProcessOutcome> {
    let event: PartnerWebhookEvent<string, unknown>;
    try {
      event = storedEvent(entry);
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      await this.inbox.markFailed(entry.eventId, message);
      return { outcome: 'failed', eventId: entry.eventId, error: message };
    }
    // The stored key wins: it is what the inbox knows the entry by.
    return this.start({ ...event, eventId: entry.eventId }, false, true);
  }

  /**
   * Processes entries the inbox reports due (failed and due, or never processed and older than
   * `minAgeMs`, default 10 s: younger ones are most likely in the hands of the delivery that
   * recorded them, perhaps on another replica). Oldest first, `limit` (default 100) per read.
   *
   * With `untilEmpty` it reads batch after batch until nothing due is left, so a
   * crash's backlog does not drain at one batch per cron tick. "Due" is judged against the run's start,
   * and an entry is tried at most once per run: one that fails gets its backoff (its next attempt
   * lies after the start), so the run never spins on it. The run ends at the first read with no
   * entry it has not tried, so it ends even if the store keeps reporting an entry (say markFailed
   * itself failed). A store that claims entries (a lease, SKIP LOCKED) can do so in `pending`.
   */
  async processPending(options: PartnerProcessPendingOptions = {}): Promise<PartnerProcessPendingSummary> {
    if (this.inbox.claimDue) return claimPending(this.processor, options);
    return readPending(
      {
        inbox: this.inbox,
        redeliver: (entry) => this.redeliver(entry),
        busy: (eventId, snapshotAt) => {
          const finished = this.finishedAt.get(eventId);
          return this.inFlight.has(eventId) || (finished !== undefined && finished >= snapshotAt);
        },
      },
      options,
    );
  }

  /**
   * Backpressure: resolves at once while fewer than `batching.maxBacklog` events are
   * being processed here, else when enough have settled (oldest waiter first) or after
   * `batching.maxBacklogWaitMs`, whichever comes first. The ingest service awaits it before
   * recording, so a burst the handlers cannot keep up with slows intake instead of growing the
   * backlog (its lag and its memory) without end. Never rejects.
   */
  roomToProcess(): Promise<{ timedOut: boolean }> | null {
    const { maxBacklog, maxBacklogWaitMs } = this.config.batching;
    if (this.inFlight.size < maxBacklog || maxBacklogWaitMs <= 0) return null;
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        const at = this.roomWaiters.indexOf(release);
        if (at >= 0) this.roomWaiters.splice(at, 1);
        resolve({ timedOut: true });
      }, maxBacklogWaitMs);
      const release = () => {
        clearTimeout(timer);
        resolve({ timedOut: false });
      };
      this.roomWaiters.push(release);
    });
  }

  /** Deliveries waiting in roomToProcess. For metrics, tests and diagnostics. */
  get waitingForRoom(): number {
    return this.roomWaiters.length;
  }

  /** Resolves when every processing started so far has settled. For tests and shutdown. */
  async drain(): Promise<void> {
    while (this.inFlight.size > 0) await Promise.allSettled([...this.inFlight.values()]);
  }

  async onApplicationShutdown(): Promise<void> {
    await this.drain();
  }

  /**
   * Starts (or joins) the processing of a recorded event; the ingest service calls it after recording.
   * `deferred`: run after the current answer; `redelivery`: a stored entry run again.
   */
  start(
    event: PartnerWebhookEvent<string, unknown>,
    deferred: boolean,
    redelivery = false,
  ): Promise<PartnerProcessOutcome> {
    const existing = this.inFlight.get(event.eventId);
    if (existing) return existing;
    // Span `partner.webhook process` (a child of the receipt's), the hook, the log context.
    // In batch mode the processor runs the handlers in this call's context (see InboxProcessor).
    const promise = observeWebhookProcessing(this.config.onEvent, event, redelivery, async () => {
      const outcome = await this.processor.process(event, deferred);
      // Logged here, in the delivery's own context (its span, log and request scopes), whether the
      // entry ran alone or in a batch another delivery started.
      if (outcome.outcome === 'processed')
        this.config.logger.debug?.(`Partner webhook ${event.name} (${event.eventId}) processed`);
      return outcome;
    }).finally(() => {
      this.inFlight.delete(event.eventId);
      this.finishedAt.set(event.eventId, Date.now());
      this.finishedCap.trim();
      this.releaseRoom();
    });
    this.inFlight.set(event.eventId, promise);
    return promise;
  }

  /** Lets as many waiting deliveries go as the backlog has room for. */
  private releaseRoom(): void {
    let room = this.config.batching.maxBacklog - this.inFlight.size;
    while (room > 0 && this.roomWaiters.length > 0) {
      (this.roomWaiters.shift() as () => void)();
      room -= 1;
    }
  }
}
