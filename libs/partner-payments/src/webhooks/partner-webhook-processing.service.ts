import { Inject, Injectable, type OnApplicationShutdown } from '@nestjs/common';
import { observeWebhookProcessing } from '../observability/webhook-instrumentation.util';
import { PARTNER_INBOX_STORE, PARTNER_WEBHOOK_CONFIG } from '../partner-payments.constants';
import { parsePartnerEnvelope } from './events/envelope.util';
import type {
  InboxDrainOptions,
  InboxDrainSummary,
  InboxEntry,
  InboxProcessOutcome,
  PartnerInboxStore,
} from './inbox/inbox.store';
import type { PartnerWebhookEvent } from './events/partner-event.types';
import { type PartnerWebhookConfig } from './webhook-options.util';
import { PartnerWebhookDispatcher, type PartnerDispatchResult } from './events/webhook-dispatcher.service';

export type PartnerProcessOutcome =
  | { outcome: 'processed'; eventId: string; dispatch: PartnerDispatchResult }
  /** The inbox found the entry processed already, or held by another replica: handlers not run. */
  | { outcome: 'skipped'; eventId: string }
  /**
   * retryAt: when the store makes the entry due again; null when it will not (dead); undefined when
   * the failure could not be recorded (the store rejected): the entry stays due and the next
   * `processPending` tries it again.
   */
  | { outcome: 'failed'; eventId: string; error: string; retryAt: Date | null | undefined };
export type PartnerProcessPendingOptions = InboxDrainOptions;
export type PartnerProcessPendingSummary = InboxDrainSummary;

type AnyEvent = PartnerWebhookEvent<string, unknown>;

/**
 * The processing half of the webhook pipeline: runs the handlers of recorded events (after the
 * answer, spec 6.1.4), re-runs stored entries (redeliver) and drains what is due (processPending).
 */
@Injectable()
export class PartnerWebhookProcessingService implements OnApplicationShutdown {
  private readonly inFlight = new Map<string, Promise<PartnerProcessOutcome>>();
  /** processPending runs started here, settled or not (never rejecting): shutdown waits for them. */
  private readonly drainRuns = new Set<Promise<void>>();
  /** Entries whose handlers a drain run is running here: they count towards the backlog. */
  private drainedInFlight = 0;
  /** Aborted at shutdown: drain runs started here stop before their next batch. */
  private readonly stopping = new AbortController();
  /** Deliveries waiting for room in the backlog (roomToProcess), oldest first. */
  private readonly roomWaiters: Array<() => void> = [];

  constructor(
    @Inject(PARTNER_WEBHOOK_CONFIG) private readonly config: PartnerWebhookConfig,
    @Inject(PARTNER_INBOX_STORE) private readonly inbox: PartnerInboxStore,
    private readonly dispatcher: PartnerWebhookDispatcher,
  ) {}

  /**
   * Re-runs the handlers of a stored entry (its signature was checked on receipt), through the
   * inbox's `process`: skipped when it is processed already. For tools and tests.
   */
  redeliver(entry: Pick<InboxEntry, 'eventId' | 'rawBody'>): Promise<PartnerProcessOutcome> {
    let event: AnyEvent;
    try {
      event = storedEvent(entry);
    } catch (error) {
      // Recorded as a failed attempt like a handler's error, so it backs off and ends dead, visible.
      const unreadable = { eventId: entry.eventId, name: 'stored event' };
      return this.run(unreadable, () => Promise.reject(error), false, true);
    }
    return this.run(event, () => this.dispatcher.dispatch(event), false, true);
  }

  /**
   * Processes entries the inbox reports due (`PartnerInboxStore.drain`): failed and due, or never
   * processed and older than `minAgeMs` (default 10 s: younger ones are most likely in the hands
   * of the delivery that recorded them, perhaps on another replica). Oldest first, `limit`
   * (default 100) per batch; with `untilEmpty`, batch after batch until nothing due is left, each
   * entry tried at most once per run, so a crash's backlog drains in one run and it never spins.
   * Each entry's handlers run in span `partner.webhook process` (a redelivery: its own trace).
   * Shutdown waits for the run and stops it before its next batch, as an aborted `signal` does.
   */
  processPending(options: PartnerProcessPendingOptions = {}): Promise<PartnerProcessPendingSummary> {
    const signal = options.signal
      ? AbortSignal.any([options.signal, this.stopping.signal])
      : this.stopping.signal;
    const run = this.inbox.drain((entry) => this.runDrained(entry), { ...options, signal });
    const settled = run.then(
      () => undefined,
      () => undefined,
    );
    this.drainRuns.add(settled);
    void settled.then(() => this.drainRuns.delete(settled));
    return run;
  }

  /**
   * Backpressure: resolves at once while fewer than `batching.maxBacklog` events are
   * being processed here (by deliveries and processPending runs), else when enough have settled (oldest waiter first) or after
   * `batching.maxBacklogWaitMs`, whichever comes first. The ingest service awaits it before
   * recording, so a burst the handlers cannot keep up with slows intake instead of growing the
   * backlog (its lag and its memory) without end. Never rejects.
   */
  roomToProcess(): Promise<{ timedOut: boolean }> | null {
    const { maxBacklog, maxBacklogWaitMs } = this.config.batching;
    if (this.processingHere < maxBacklog || maxBacklogWaitMs <= 0) return null;
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

  /**
   * Resolves when every processing started so far has settled, processPending runs included.
   * For tests and shutdown.
   */
  async drain(): Promise<void> {
    while (this.inFlight.size > 0 || this.drainRuns.size > 0)
      await Promise.allSettled([...this.inFlight.values(), ...this.drainRuns]);
  }

  /** Stops the drain runs started here before their next batch, then waits for what is running. */
  async onApplicationShutdown(): Promise<void> {
    this.stopping.abort();
    await this.drain();
  }

  /** Events whose handlers run here: deliveries' and drain runs'. */
  private get processingHere(): number {
    return this.inFlight.size + this.drainedInFlight;
  }

  /**
   * Starts (or joins) the processing of a recorded event; the ingest service calls it after
   * recording. `deferred`: run after the current answer (persist, ack, process).
   */
  start(event: AnyEvent, deferred: boolean): Promise<PartnerProcessOutcome> {
    return this.run(event, () => this.dispatcher.dispatch(event), deferred, false);
  }

  /** One processing of an entry through the inbox's `process`, joined when one is in flight here. */
  private run(
    event: { eventId: string; name: string },
    handle: () => Promise<PartnerDispatchResult>,
    deferred: boolean,
    redelivery: boolean,
  ): Promise<PartnerProcessOutcome> {
    const existing = this.inFlight.get(event.eventId);
    if (existing) return existing;
    // Span `partner.webhook process` (a child of the receipt's), the hook, the log context; the
    // store runs `handle` in this context even when it batches entries.
    const promise = observeWebhookProcessing(this.config.onEvent, event, redelivery, async () => {
      if (deferred) await new Promise<void>((resolve) => setImmediate(resolve));
      // A store that rejects (its failure record itself failed) leaves the entry due for a drain;
      // the processing promise still settles, as the ingest's `processing` promises.
      const processed = await this.inbox.process(event.eventId, handle).catch((error: unknown) => ({
        outcome: 'failed' as const,
        error: error instanceof Error ? error.message : String(error),
        retryAt: undefined,
      }));
      const outcome = withId(event.eventId, processed);
      if (outcome.outcome === 'failed') this.logFailure(event, outcome.error);
      else if (outcome.outcome === 'processed')
        this.config.logger.debug?.(`Partner webhook ${event.name} (${event.eventId}) processed`);
      return outcome;
    }).finally(() => {
      this.inFlight.delete(event.eventId);
      this.releaseRoom();
    });
    this.inFlight.set(event.eventId, promise);
    return promise;
  }

  /** A drained entry, counted towards the backlog while its handlers run. */
  private async runDrained(entry: InboxEntry): Promise<PartnerDispatchResult> {
    this.drainedInFlight += 1;
    try {
      return await this.runStored(entry);
    } finally {
      this.drainedInFlight -= 1;
      this.releaseRoom();
    }
  }

  /** A drained entry: its handlers in their own span, the failure logged; throws it to the store. */
  private async runStored(entry: InboxEntry): Promise<PartnerDispatchResult> {
    const event = storedEvent(entry);
    let failure: unknown;
    let value: PartnerDispatchResult | undefined;
    const observed = await observeWebhookProcessing(this.config.onEvent, event, true, async () => {
      try {
        value = await this.dispatcher.dispatch(event);
        this.config.logger.debug?.(
          `Partner webhook ${event.name} (${event.eventId}) handlers ran (redelivery)`,
        );
        return { outcome: 'processed' as const };
      } catch (error) {
        failure = error;
        this.logFailure(event, error instanceof Error ? error.message : String(error));
        return { outcome: 'failed' as const };
      }
    });
    if (observed.outcome === 'failed') throw failure;
    return value as PartnerDispatchResult;
  }

  private logFailure(event: { eventId: string; name: string }, message: string): void {
    this.config.logger.error(
      `Partner webhook ${event.name} (${event.eventId}) processing failed: ${message}`,
    );
  }

  /** Lets as many waiting deliveries go as the backlog has room for. */
  private releaseRoom(): void {
    let room = this.config.batching.maxBacklog - this.processingHere;
    while (room > 0 && this.roomWaiters.length > 0) {
      (this.roomWaiters.shift() as () => void)();
      room -= 1;
    }
  }
}

function withId(eventId: string, o: InboxProcessOutcome<PartnerDispatchResult>): PartnerProcessOutcome {
  if (o.outcome === 'processed') return { outcome: 'processed', eventId, dispatch: o.value };
  if (o.outcome === 'skipped') return { outcome: 'skipped', eventId };
  return { outcome: 'failed', eventId, error: o.error, retryAt: o.retryAt };
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
