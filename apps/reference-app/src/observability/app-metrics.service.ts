import {
  isKnownPartnerEvent,
  type PartnerHttpEvent,
  type PartnerPaymentsModuleOptions,
  type PartnerRateLimitWaitEvent,
  type PartnerTokenEvent,
  type PartnerWebhookObservation,
} from '@partner-payments/nestjs';
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';

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
/** Known event names as they are; anything else one bucket, so a label can never grow without bound. */
const eventLabel = (name: string): string => (isKnownPartnerEvent(name) ? name : 'unknown');

/**
 * Every metric of the app (issue 13), on a registry of its own (not prom-client's global one:
 * tests run several apps in one process). Fed by the library's hooks (onHttpEvent, onTokenEvent,
 * onRateLimitWait, onWebhookEvent, wired in app.module.ts), by the jobs' pass summaries, and, at
 * scrape time, by the inbox's own table. Labels are route templates, enumerations and known event
 * names only: never an id, an amount or a secret. docs/operations.md says what each one means.
 */
export class AppMetrics {
  readonly registry = new Registry();
  private readonly partnerDuration = new Histogram({
    name: 'partner_http_request_duration_seconds',
    help: 'Partner API attempts by route template, method, status class (2xx..5xx, network_error) and attempt number; latency in seconds',
    labelNames: ['route', 'method', 'status_class', 'attempt'] as const,
    buckets: [0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
    registers: [this.registry],
  });
  private readonly partnerRetries = new Counter({
    name: 'partner_http_retries_total',
    help: 'Partner API attempts that failed and were retried, by route, method and status class',
    labelNames: ['route', 'method', 'status_class'] as const,
    registers: [this.registry],
  });
  private readonly tokenRefreshes = new Counter({
    name: 'partner_token_refreshes_total',
    help: 'Bearer tokens obtained (POST /auth with its retries)',
    registers: [this.registry],
  });
  private readonly tokenFailures = new Counter({
    name: 'partner_token_failures_total',
    help: 'Token refreshes that failed: reason unavailable (5xx, 429, timeout) or refused (credentials)',
    labelNames: ['reason'] as const,
    registers: [this.registry],
  });
  private readonly rateLimitWaits = new Counter({
    name: 'partner_rate_limit_waits_total',
    help: 'Partner calls that waited for the client-side rate limiter',
    registers: [this.registry],
  });
  private readonly rateLimitWaitSeconds = new Counter({
    name: 'partner_rate_limit_wait_seconds_total',
    help: 'Time partner calls spent waiting for the client-side rate limiter, in seconds',
    registers: [this.registry],
  });
  private readonly webhooks = new Counter({
    name: 'partner_webhooks_received_total',
    help: 'Webhook deliveries by answer: accepted, duplicate, unknown (event type), refused (with reason)',
    labelNames: ['outcome', 'reason'] as const,
    registers: [this.registry],
  });
  private readonly processing = new Counter({
    name: 'partner_webhook_processing_total',
    help: 'Processing runs of stored webhook events by outcome (processed, failed = a handler threw, skipped) and event',
    labelNames: ['outcome', 'event'] as const,
    registers: [this.registry],
  });
  private readonly processingDuration = new Histogram({
    name: 'partner_webhook_processing_duration_seconds',
    help: 'Time to run the handlers of one stored webhook event and mark it, in seconds',
    labelNames: ['outcome'] as const,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 10],
    registers: [this.registry],
  });
  private readonly backpressureWaits = new Counter({
    name: 'partner_webhook_backpressure_waits_total',
    help: 'Deliveries that waited for room in the processing backlog before being stored, by outcome (room, timeout)',
    labelNames: ['outcome'] as const,
    registers: [this.registry],
  });
  private readonly backpressureWaitSeconds = new Counter({
    name: 'partner_webhook_backpressure_wait_seconds_total',
    help: 'Time deliveries spent waiting for room in the processing backlog, in seconds',
    registers: [this.registry],
  });
  private readonly reconPasses = new Counter({
    name: 'reconciliation_passes_total',
    help: 'Reconciliation passes this replica ran, by job (payouts, deposits)',
    labelNames: ['job'] as const,
    registers: [this.registry],
  });
  private readonly reconItems = new Counter({
    name: 'reconciliation_items_total',
    help: 'What reconciliation passes found, by job and result (checked, changed = drift, missing = drift, failed)',
    labelNames: ['job', 'result'] as const,
    registers: [this.registry],
  });
  private readonly redrivePasses = new Counter({
    name: 'payout_redrive_passes_total',
    help: 'Outbox re-drive passes of POST /payouts this replica ran',
    registers: [this.registry],
  });
  private readonly redrives = new Counter({
    name: 'payout_redrive_requests_total',
    help: 'Payout requests handled by the outbox re-drive, by outcome (created, rejected, retrying, needs_review)',
    labelNames: ['outcome'] as const,
    registers: [this.registry],
  });
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
    // Series an alert rule compares with 0 exist from the first scrape.
    for (const reason of ['unavailable', 'refused']) this.tokenFailures.labels(reason).inc(0);
    for (const outcome of ['accepted', 'duplicate', 'unknown'])
      this.webhooks.labels({ outcome, reason: '' }).inc(0);
    for (const job of ['payouts', 'deposits']) this.reconPasses.labels(job).inc(0);
    for (const outcome of ['room', 'timeout']) this.backpressureWaits.labels(outcome).inc(0);
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
    this.rateLimitWaits.inc();
    this.rateLimitWaitSeconds.inc(e.waitMs / 1000);
  };

  readonly onWebhookEvent = (e: PartnerWebhookObservation): void => {
    if (e.type === 'received') {
      this.webhooks.inc({ outcome: e.outcome, reason: e.outcome === 'refused' ? e.reason : '' });
      return;
    }
    if (e.type === 'backpressure') {
      this.backpressureWaits.inc({ outcome: e.timedOut ? 'timeout' : 'room' });
      this.backpressureWaitSeconds.inc(e.waitedMs / 1000);
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
