import { PartnerEvent, type PartnerPaymentsModuleOptions } from '@partner-payments/nestjs';
import type {
  PartnerHttpEvent,
  PartnerRateLimitWaitEvent,
  PartnerTokenEvent,
  PartnerWebhookObservation,
} from '@partner-payments/nestjs/observability';
import { isKnownPartnerEvent } from '@partner-payments/nestjs/webhooks';
import { Counter, Histogram, type LabelValues, type Registry } from 'prom-client';

/** A counter on `registry` (every counter of the app has the same shape but its name, help and labels). */
export function counterOn<L extends string = never>(
  registry: Registry,
  name: string,
  help: string,
  labelNames: readonly L[] = [],
): Counter<L> {
  return new Counter({ name, help, labelNames, registers: [registry] });
}

/**
 * A kind of wait as two counters, `<prefix>_waits_total` (labelled) and
 * `<prefix>_wait_seconds_total`: how often callers waited and for how long, recorded together.
 */
function waitsOn<L extends string = never>(
  registry: Registry,
  prefix: string,
  text: { who: string; forWhat: string; labelHelp?: string },
  labelNames: readonly L[] = [],
) {
  const { who, forWhat, labelHelp = '' } = text;
  const count = counterOn(
    registry,
    `${prefix}_waits_total`,
    `${who} that waited ${forWhat}${labelHelp}`,
    labelNames,
  );
  const seconds = counterOn(
    registry,
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
/** Known event names as they are; anything else one bucket, so a label can never grow without bound. */
const eventLabel = (name: string): string => (isKnownPartnerEvent(name) ? name : 'unknown');

/** The four observability hooks of PartnerPaymentsModule: the one channel the module reports through. */
export type PartnerHooks = Pick<
  PartnerPaymentsModuleOptions,
  'onHttpEvent' | 'onTokenEvent' | 'onRateLimitWait' | 'onWebhookEvent'
>;

/**
 * The metrics fed by the library's hooks (onHttpEvent, onTokenEvent, onRateLimitWait,
 * onWebhookEvent): partner calls, token refreshes, rate-limiter waits and webhooks. Labels are
 * route templates, enumerations and known event names only: never an id, an amount or a secret.
 */
export class PartnerHookMetrics {
  private readonly partnerDuration: Histogram<'route' | 'method' | 'status_class' | 'attempt'>;
  private readonly partnerRetries: Counter<'route' | 'method' | 'status_class'>;
  private readonly tokenRefreshes: Counter;
  private readonly tokenFailures: Counter<'reason'>;
  private readonly rateLimitWaits: ReturnType<typeof waitsOn>;
  private readonly webhooks: Counter<'outcome' | 'reason'>;
  private readonly processing: Counter<'outcome' | 'event'>;
  private readonly processingDuration: Histogram<'outcome'>;
  private readonly backpressureWaits: ReturnType<typeof waitsOn<'outcome'>>;

  constructor(registry: Registry) {
    this.partnerDuration = new Histogram({
      name: 'partner_http_request_duration_seconds',
      help: 'Partner API attempts by route template, method, status class (2xx..5xx, network_error) and attempt number; latency in seconds',
      labelNames: ['route', 'method', 'status_class', 'attempt'] as const,
      buckets: [0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
      registers: [registry],
    });
    this.partnerRetries = counterOn(
      registry,
      'partner_http_retries_total',
      'Partner API attempts that failed and were retried, by route, method and status class',
      ['route', 'method', 'status_class'],
    );
    this.tokenRefreshes = counterOn(
      registry,
      'partner_token_refreshes_total',
      'Bearer tokens obtained (POST /auth with its retries)',
    );
    this.tokenFailures = counterOn(
      registry,
      'partner_token_failures_total',
      'Token refreshes that failed: reason unavailable (5xx, 429, timeout) or refused (credentials; a 500 before the client id was ever accepted)',
      ['reason'],
    );
    this.rateLimitWaits = waitsOn(registry, 'partner_rate_limit', {
      who: 'Partner calls',
      forWhat: 'for the client-side rate limiter',
    });
    this.webhooks = counterOn(
      registry,
      'partner_webhooks_received_total',
      'Webhook deliveries by answer: accepted, duplicate, unknown (event type), refused (with reason)',
      ['outcome', 'reason'],
    );
    this.processing = counterOn(
      registry,
      'partner_webhook_processing_total',
      'Processing runs of stored webhook events by outcome (processed, failed = a handler threw, skipped) and event',
      ['outcome', 'event'],
    );
    this.processingDuration = new Histogram({
      name: 'partner_webhook_processing_duration_seconds',
      help: 'Time to run the handlers of one stored webhook event and mark it, in seconds',
      labelNames: ['outcome'] as const,
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 10],
      registers: [registry],
    });
    this.backpressureWaits = waitsOn(
      registry,
      'partner_webhook_backpressure',
      {
        who: 'Deliveries',
        forWhat: 'for room in the processing backlog before being stored',
        labelHelp: ', by outcome (room, timeout)',
      },
      ['outcome'],
    );
    // Every series an alert rule reads exists from the first scrape, at 0 (AppMetrics says why).
    for (const reason of ['unavailable', 'refused']) this.tokenFailures.labels(reason).inc(0);
    for (const outcome of ['accepted', 'duplicate', 'unknown'])
      this.webhooks.labels({ outcome, reason: '' }).inc(0);
    for (const reason of WEBHOOK_REFUSAL_REASONS) this.webhooks.labels({ outcome: 'refused', reason }).inc(0);
    for (const event of [...Object.values(PartnerEvent), 'unknown'])
      this.processing.labels({ outcome: 'failed', event }).inc(0);
    for (const outcome of ['room', 'timeout']) this.backpressureWaits.count.labels(outcome).inc(0);
  }

  /** The hooks, to spread into PartnerPaymentsModule's options. */
  hooks(): PartnerHooks {
    const { onHttpEvent, onTokenEvent, onRateLimitWait, onWebhookEvent } = this;
    return { onHttpEvent, onTokenEvent, onRateLimitWait, onWebhookEvent };
  }

  private readonly onHttpEvent = (e: PartnerHttpEvent): void => {
    if (e.type === 'request') return;
    // Called for every partner attempt: label objects built directly (no spread, no number formatting).
    const { route, method } = e;
    const status_class = statusClass(e);
    const attempt = ATTEMPTS[e.attempt] ?? String(e.attempt);
    this.partnerDuration.observe({ route, method, status_class, attempt }, (e.durationMs ?? 0) / 1000);
    if (e.willRetry) this.partnerRetries.inc({ route, method, status_class });
  };

  private readonly onTokenEvent = (e: PartnerTokenEvent): void => {
    if (e.type === 'refreshed') this.tokenRefreshes.inc();
    else this.tokenFailures.inc({ reason: e.reason ?? 'unavailable' });
  };

  private readonly onRateLimitWait = (e: PartnerRateLimitWaitEvent): void => {
    this.rateLimitWaits.record(e.waitMs);
  };

  private readonly onWebhookEvent = (e: PartnerWebhookObservation): void => {
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
}
