/**
 * Public surface of @partner-payments/nestjs. Nothing else is exported from the package.
 */
// Module, DI helpers
// (not ConfigurableModuleClass / MODULE_OPTIONS_TOKEN / OPTIONS_TYPE: builder internals whose generic
// names would clash with a host's own `export *`; the options token is PARTNER_PAYMENTS_OPTIONS)
export { PartnerPaymentsModule } from './partner-payments.module';
export type {
  PartnerPaymentsModuleExtras,
  PartnerPaymentsModuleForRootOptions,
  PartnerPaymentsModuleAsyncOptions,
  PartnerPaymentsOptionsFactory,
} from './partner-payments.module';
export { InjectPartnerOptions, InjectPartnerLogger } from './partner-payments.decorators';

// Options, errors, auth, HTTP, resources, models, validation (framework-free)
export * from './core';

// Webhooks (spec 6)
export * from './webhooks/partner-event.constants';
export * from './webhooks/inbox.store';
export * from './webhooks/partner-event.payloads';
export * from './webhooks/webhook.errors';
export {
  computePartnerSignature,
  verifyPartnerSignature,
  redactSignature,
  PARTNER_SIGNATURE_HEADER,
} from './webhooks/signature.verifier';
export type { PartnerSignatureVerification } from './webhooks/signature.verifier';
export {
  parsePartnerEnvelope,
  isKnownPartnerEvent,
  isKnownPartnerEventView,
  hasSyntheticEventId,
} from './webhooks/envelope.parser';
export { PartnerInMemoryInboxStore } from './webhooks/inbox.memory-store';
export type { PartnerInMemoryInboxStoreOptions } from './webhooks/inbox.memory-store';
export { PartnerPayoutStatusDeduper } from './webhooks/payout-status.deduper';
export type { PartnerPayoutStatusDeduperOptions } from './webhooks/payout-status.deduper';
export { toPartnerPayoutStatusEvent } from './webhooks/payout-status.mapper';
export { PartnerWebhookDispatcher, emitPartnerPayoutStatus } from './webhooks/webhook.dispatcher';
export type { PartnerDispatchResult } from './webhooks/webhook.dispatcher';
export { PartnerWebhookService, headerValue } from './webhooks/partner-webhook.service';
export type {
  PartnerWebhookHeaders,
  PartnerWebhookHandleResult,
  PartnerWebhookHandleOptions,
  PartnerProcessOutcome,
  PartnerProcessPendingOptions,
  PartnerProcessPendingSummary,
} from './webhooks/partner-webhook.service';
export {
  PartnerWebhookGuard,
  getVerifiedPartnerBody,
  PARTNER_WEBHOOK_VERIFIED_BODY,
} from './webhooks/partner-webhook.guard';
export {
  createPartnerWebhookController,
  PartnerWebhookRouteEnabledGuard,
} from './webhooks/partner-webhook.controller';
export type { PartnerWebhookAck } from './webhooks/partner-webhook.controller';
export { OnPartnerEvent } from './webhooks/on-partner-event.decorator';
export type { PartnerEmittedEventName } from './webhooks/on-partner-event.decorator';
export { PartnerWebhookBootCheck } from './webhooks/webhook.boot-check';
export type { PartnerWebhookBootReport, PartnerHandlerInfo } from './webhooks/webhook.boot-check';
export {
  PARTNER_WEBHOOK_CONFIG,
  DEFAULT_PARTNER_WEBHOOK_PATH,
  DEFAULT_PARTNER_WEBHOOK_MAX_BODY_BYTES,
  DEFAULT_PARTNER_WEBHOOK_BATCHING,
  resolvePartnerWebhookConfig,
} from './webhooks/webhook.config';
export type { PartnerWebhookConfig, PartnerWebhookBatching } from './webhooks/webhook.config';
export { InboxGroupCommit } from './webhooks/inbox.group-commit';
export type { InboxGroupCommitOptions } from './webhooks/inbox.group-commit';
export { readPartnerRawBody } from './webhooks/raw-body.reader';
// Observability of the webhook path (issue 13): which event a log line belongs to
export { currentPartnerLogContext } from './observability/webhook.instrumentation';
export type { PartnerLogContext } from './observability/webhook.instrumentation';
export type { PartnerRawBodyRequest } from './webhooks/raw-body.reader';
