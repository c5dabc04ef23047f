/**
 * @partner-payments/nestjs/webhooks: for your own webhook route and your tests (docs/nestjs/webhooks.md):
 * the two services of the pipeline (ingest: verify, parse, record; processing: run the handlers,
 * `processPending`, `redeliver`, `drain`), the webhook options, the event-name helpers and the
 * signature header (spec 6.2). The guard, `@VerifiedPartnerBody()`, the events and `@OnPartnerEvent`
 * are exported by the package root.
 */
export type { PartnerWebhookOptions } from './partner-payments.options';
export { PartnerWebhookIngestService } from './webhooks/partner-webhook-ingest.service';
export type {
  PartnerWebhookHeaders,
  PartnerWebhookHandleResult,
} from './webhooks/partner-webhook-ingest.service';
export { PartnerWebhookProcessingService } from './webhooks/partner-webhook-processing.service';
export type {
  PartnerProcessPendingOptions,
  PartnerProcessPendingSummary,
} from './webhooks/partner-webhook-processing.service';
export type { PartnerEventName } from './webhooks/events/partner-event.constants';
export type { PartnerEventMap, PartnerUnknownEvent } from './webhooks/events/partner-event.types';
export { isKnownPartnerEvent } from './webhooks/events/envelope.util';
export { PARTNER_SIGNATURE_HEADER } from './webhooks/signature.util';
