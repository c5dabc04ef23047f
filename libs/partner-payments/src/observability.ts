/**
 * @partner-payments/nestjs/observability: what the module reports through (docs/nestjs/observability.md):
 * the events its hooks receive (`onHttpEvent`, `onTokenEvent`, `onRateLimitWait`, `onWebhookEvent`),
 * its OpenTelemetry tracer name and span attributes, and the log context of a webhook being processed.
 */
export type { PartnerHttpEvent } from './http/http.types';
export type {
  PartnerTokenEvent,
  PartnerRateLimitWaitEvent,
  PartnerWebhookObservation,
} from './observability/hooks.util';
export { PARTNER_TRACER_NAME, PartnerSpanAttribute } from './observability/partner-tracing.util';
export { currentPartnerLogContext } from './observability/webhook-instrumentation.util';
