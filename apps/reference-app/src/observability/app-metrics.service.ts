import { PartnerEvent, type PartnerPaymentsModuleOptions } from '@partner-payments/nestjs';
import type {
  PartnerHttpEvent,
  PartnerRateLimitWaitEvent,
  PartnerTokenEvent,
  PartnerWebhookObservation,
} from '@partner-payments/nestjs/observability';
import { isKnownPartnerEvent } from '@partner-payments/nestjs/webhooks';
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry, type LabelValues } from 'prom-client';

/** What the inbox gauges read at scrape time (observability/inbox-stats.util.ts). */
export interface InboxStats {
  /** Entries per unfinished state: pending, failed, dead. */
  counts: Record<'pending' | 'failed' | 'dead', number>;
  /** Age of the oldest entry per unfinished state, in seconds; 0 when none. */
  oldestAgeSeconds: Record<'pending' | 'failed', number>;
}

const STATUS_CLASSES = ['0xx', '1xx', '2xx', '3xx', '4xx', '5xx'];
const statusClass = (e: PartnerHttpEvent): string =>
  e.status === undefined
    ? 'network_error'
    : (STATUS_CLASSES[Math.floor(e.status / 100)] ?? `${Math.floor(e.status / 100)}xx`);
const ATTEMPTS = ['0', '1', '2', '3', '4', '5', '6'];
type RefusalReason = Extract<PartnerWebhookObservation, { outcome: 'refused' }>['reason'];
/**
 * Every reason a delivery is refused for, each a series from the start. A record over the library's
 * type, so a reason it adds fails this file's type check until it is listed here.
 */
const WEBHOOK_REFUSAL_REASONS = Object.keys({
  missing_header: true,
  not_hex: true,
  odd_length: true,
  wrong_length: true,
  mismatch: true,
  no_secret_configured: true,
  invalid_payload: true,
  payload_too_large: true,
  inbox_unavailable: true,
  no_raw_body: true,
} satisfies Record<RefusalReason, true>);
/** What reconciliationPass records per job (the summaries' counters it is called with). */
const RECONCILIATION_RESULTS = {
  payouts: ['checked', 'changed', 'failed'],
  deposits: ['read', 'missing', 'changed'],
} as const;
const REDRIVE_OUTCOMES = ['created', 'rejected', 'retrying', 'needs_review'] as const;
/** Known event names as they are; anything else one bucket, so a label can never grow without bound. */
const eventLabel = (name: string): string => (isKnownPartnerEvent(name) ? name : 'unknown');

/**
 * Every metric of the app, on a registry of its own (not prom-client's global one:
 * tests run several apps in one process). Fed by the library's hooks (onHttpEvent, onTokenEvent,
 * onRateLimitWait, onWebhookEvent, wired in app.module.ts), by the jobs' pass summaries, and, at
 * scrape time, by the inbox's own table. Labels are route templates, enumerations and known event
 * names only: never an id, an amount or a secret. docs/operations.md says what each one means.
 */
export class AppMetrics {
  readonly registry = new Registry();
  /** A counter on this registry (every counter here has the same shape but its name, help and labels). */
  private counter<L extends string = never>(
    name: string,
    help: string,
    labelNames: readonly L[] = [],
  ): Counter<L> {
    return new Counter({ name, help, labelNames, registers: [this.registry] });
  }
  /**
   * A kind of wait as two counters, `<prefix>_waits_total` (labelled) and
   * `<prefix>_wait_seconds_total`: how often callers waited and for how long, recorded together.
   */
  private waits<L extends string = never>(
    prefix: string,
    who: string,
    forWhat: string,
    labelNames: readonly L[] = [],
    labelHelp = '',
  ) {
    const count = this.counter(
      `${prefix}_waits_total`,
      `${who} that waited ${forWhat}${labelHelp}`,
      labelNames,
    );
    const seconds = this.counter(
      `${prefix}_wait_seconds_total`,
      `Time ${who.toLowerCase()} spent waiting ${forWhat}, in seconds`,
    );
    return {
      count,
      record(waitedMs: number, labels: LabelValues<L> = {}): void {
        count.inc(labels);
        seconds.inc(waitedMs / 1000);
      },
    };
  }
  private readonly partnerDuration = new Histogram({
    name: 'partner_http_request_duration_seconds',
    help: 'Partner API attempts by route template, method, status class (2xx..5xx, network_error) and attempt number; latency in seconds',
    labelNames: ['route', 'method', 'status_class', 'attempt'] as const,
    buckets: [0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
    registers: [this.registry],
  });
  private readonly partnerRetries = this.counter(
    'partner_http_retries_total',
    'Partner API attempts that failed and were retried, by route, method and status class',
    ['route', 'method', 'status_class'],
  );
  private readonly tokenRefreshes = this.counter(
    'partner_token_refreshes_total',
    'Bearer tokens obtained (POST /auth with its retries)',
  );
  private readonly tokenFailures = this.counter(
    'partner_token_failures_total',
    'Token refreshes that failed: reason unavailable (5xx, 429, timeout) or refused (credentials; a 500 before the client id was ever accepted)',
    ['reason'],
  );
  private readonly rateLimitWaits = this.waits(
    'partner_rate_limit',
    'Partner calls',
    'for the client-side rate limiter',
  );
  private readonly webhooks = this.counter(
    'partner_webhooks_received_total',
    'Webhook deliveries by answer: accepted, duplicate, unknown (event type), refused (with reason)',
    ['outcome', 'reason'],
  );
  private readonly processing = this.counter(
    'partner_webhook_processing_total',
    'Processing runs of stored webhook events by outcome (processed, failed = a handler threw, skipped) and event',
    ['outcome', 'event'],
  );
  private readonly processingDuration = new Histogram({
    name: 'partner_webhook_processing_duration_seconds',
    help: 'Time to run the handlers of one stored webhook event and mark it, in seconds',
    labelNames: ['outcome'] as const,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 10],
    registers: [this.registry],
  });
  private readonly backpressureWaits = this.waits(
    'partner_webhook_backpressure',
    'Deliveries',
    'for room in the processing backlog before being stored',
    ['outcome'],
    ', by outcome (room, timeout)',
  );
  private readonly reconPasses = this.counter(
    'reconciliation_passes_total',
    'Reconciliation passes this replica ran, by job (payouts, deposits)',
    ['job'],
  );
  private readonly reconItems = this.counter(
    'reconciliation_items_total',
    'What reconciliation passes found, by job and result (checked, changed = drift, missing = drift, failed)',
    ['job', 'result'],
  );
  private readonly redrivePasses = this.counter(
    'payout_redrive_passes_total',
    'Outbox re-drive passes of POST /payouts this replica ran',
  );
  private readonly redrives = this.counter(
    'payout_redrive_requests_total',
    'Payout requests handled by the outbox re-drive, by outcome (created, rejected, retrying, needs_review)',
    ['outcome'],
  );
  private inboxStats: (() => Promise<InboxStats>) | null = null;

  constructor() {
    collectDefaultMetrics({ register: this.registry });
    const entries: Gauge<'state'> = new Gauge({
      name: 'partner_inbox_entries',
      help: 'Webhook inbox entries not processed, by state (pending, failed, dead), read at scrape time',
      labelNames: ['state'] as const,
      registers: [this.registry],
      collect: async () => {
        const stats = await this.readInbox();
        if (stats) for (const [state, n] of Object.entries(stats.counts)) entries.set({ state }, n);
      },
    });
    const oldest: Gauge<'state'> = new Gauge({
      name: 'partner_inbox_oldest_unprocessed_age_seconds',
      help: 'Age of the oldest unprocessed inbox entry by state (pending: never processed; failed: awaiting retry)',
      labelNames: ['state'] as const,
      registers: [this.registry],
      collect: async () => {
        const stats = await this.readInbox();
        if (stats)
          for (const [state, age] of Object.entries(stats.oldestAgeSeconds)) oldest.set({ state }, age);
      },
    });
    // Every series an alert rule reads exists from the first scrape, at 0: Prometheus's increase()
    // sees no increase in a series whose first sample already holds its count, so a burst that
    // created a series between two scrapes (30 deliveries refused while the database blipped, the
    // drift found by the first pass after a restart) would never fire its alert (docs/operations.md).
    for (const reason of ['unavailable', 'refused']) this.tokenFailures.labels(reason).inc(0);
    for (const outcome of ['accepted', 'duplicate', 'unknown'])
      this.webhooks.labels({ outcome, reason: '' }).inc(0);
    for (const reason of WEBHOOK_REFUSAL_REASONS) this.webhooks.labels({ outcome: 'refused', reason }).inc(0);
    for (const event of [...Object.values(PartnerEvent), 'unknown'])
      this.processing.labels({ outcome: 'failed', event }).inc(0);
    for (const job of ['payouts', 'deposits']) this.reconPasses.labels(job).inc(0);
    for (const [job, results] of Object.entries(RECONCILIATION_RESULTS))
      for (const result of results) this.reconItems.labels({ job, result }).inc(0);
    for (const outcome of REDRIVE_OUTCOMES) this.redrives.labels(outcome).inc(0);
    for (const outcome of ['room', 'timeout']) this.backpressureWaits.count.labels(outcome).inc(0);
  }

  /** Where the inbox gauges read from; set once the database is up. */
  useInboxStats(read: () => Promise<InboxStats>): void {
    this.inboxStats = read;
  }

  /** One scrape reads the inbox once for both gauges (prom-client collects them one after the other). */
  private pendingRead: Promise<InboxStats | null> | null = null;
  private async readInbox(): Promise<InboxStats | null> {
    if (!this.inboxStats) return null;
    this.pendingRead ??= this.inboxStats()
      .catch(() => null) // the database down: the gauges keep their last values; readiness says why
      .finally(() => (this.pendingRead = null));
    return this.pendingRead;
  }

  /** The module options that feed these metrics (spread into PartnerPaymentsModule's options). */
  partnerHooks(): Pick<
    PartnerPaymentsModuleOptions,
    'onHttpEvent' | 'onTokenEvent' | 'onRateLimitWait' | 'onWebhookEvent'
  > {
    const { onHttpEvent, onTokenEvent, onRateLimitWait, onWebhookEvent } = this;
    return { onHttpEvent, onTokenEvent, onRateLimitWait, onWebhookEvent };
  }

  readonly onHttpEvent = (e: PartnerHttpEvent): void => {
    if (e.type === 'request') return;
    // Called for every partner attempt: label objects built directly (no spread, no number formatting).
    const { route, method } = e;
    const status_class = statusClass(e);
    const attempt = ATTEMPTS[e.attempt] ?? String(e.attempt);
    this.partnerDuration.observe({ route, method, status_class, attempt }, (e.durationMs ?? 0) / 1000);
    if (e.willRetry) this.partnerRetries.inc({ route, method, status_class });
  };

  readonly onTokenEvent = (e: PartnerTokenEvent): void => {
    if (e.type === 'refreshed') this.tokenRefreshes.inc();
    else this.tokenFailures.inc({ reason: e.reason ?? 'unavailable' });
  };

  readonly onRateLimitWait = (e: PartnerRateLimitWaitEvent): void => {
    this.rateLimitWaits.record(e.waitMs);
  };

  readonly onWebhookEvent = (e: PartnerWebhookObservation): void => {
    if (e.type === 'received') {
      this.webhooks.inc({ outcome: e.outcome, reason: e.outcome === 'refused' ? e.reason : '' });
      return;
    }
    if (e.type === 'backpressure') {
      this.backpressureWaits.record(e.waitedMs, { outcome: e.timedOut ? 'timeout' : 'room' });
      return;
    }
    this.processing.inc({ outcome: e.outcome, event: eventLabel(e.eventName) });
    this.processingDuration.observe({ outcome: e.outcome }, e.durationMs / 1000);
  };

  /** A reconciliation pass that ran: `job` payouts (checked, changed, failed) or deposits (read, missing, changed). */
  reconciliationPass<S extends { ran: boolean }>(
    job: 'payouts' | 'deposits',
    summary: S,
    results: Array<keyof S & string>,
  ): void {
    if (!summary.ran) return;
    this.reconPasses.inc({ job });
    for (const result of results) {
      const n: unknown = summary[result];
      if (typeof n === 'number') this.reconItems.inc({ job, result }, n);
    }
  }

  /** An outbox re-drive pass that ran. */
  redrivePass(summary: {
    ran: boolean;
    created: number;
    rejected: number;
    retrying: number;
    needsReview: number;
  }): void {
    if (!summary.ran) return;
    this.redrivePasses.inc();
    const { created, rejected, retrying, needsReview } = summary;
    for (const [outcome, n] of Object.entries({ created, rejected, retrying, needs_review: needsReview }))
      this.redrives.inc({ outcome }, n);
  }
}
