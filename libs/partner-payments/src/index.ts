/**
 * Public surface of @partner-payments/nestjs. Nothing else is exported from the package.
 */
// Module, options, DI tokens
export * from './partner-payments.module';
export * from './partner-payments.options';
export * from './partner-payments.constants';
export { resolvePartnerOptions, DEFAULT_RATE_LIMIT, DEFAULT_RETRY_OPTIONS } from './options.resolver';
export { InjectPartnerOptions, InjectPartnerLogger } from './partner-payments.decorators';
export { createPartnerPaymentsClient, buildPartnerClientGraph } from './partner-payments.factory';
export type { PartnerClientDependencies, PartnerClientGraph } from './partner-payments.factory';
export type { ResolvedPartnerOptions } from './options.resolver';

// Errors (spec 7)
export * from './errors/partner.error';
export * from './errors/partner-api.error';
export { parseErrorBody, normalizeErrorCode } from './errors/error-body.parser';
export type { ParsedErrorBody } from './errors/error-body.parser';
export { createPartnerApiError, createPartnerNetworkError } from './errors/error.factory';

// Auth and HTTP
export { TokenManager } from './auth/token.manager';
export { PartnerHttpClient } from './http/partner-http.client';
export { PartnerTransport } from './http/partner.transport';
export type { PartnerAxiosLike } from './http/partner.transport';
export { ApiVersionState } from './http/api-version.state';
export * from './http/http.types';
export * from './http/retry.policy';
export { TokenBucketRateLimiter, systemClock } from './http/rate.limiter';
export type { Clock } from './http/rate.limiter';
export { requiresIdempotencyKey, newIdempotencyKey, resolveIdempotencyKey } from './http/idempotency.policy';
export { buildPartnerHeaders, resolveVersionHeader } from './http/headers.builder';
export { joinUrl, encodePathSegment, buildQueryString, buildUrl } from './http/url.util';

// Resources and models
export { PartnerPaymentsClient } from './resources/partner-payments.client';
export { PartnerUsersService, toPartnerUser } from './resources/users.service';
export { PartnerRecipientsService } from './resources/recipients.service';
export { PartnerVirtualAccountsService } from './resources/virtual-accounts.service';
export { PartnerPayoutsService } from './resources/payouts.service';
export { PartnerRfisService } from './resources/rfis.service';
export type {
  ListRfisParams,
  AnswerRfiItemsOptions,
  UploadRfiDocumentsOptions,
} from './resources/rfis.service';
export { PartnerClientConfigService } from './resources/client-config.service';
export { PartnerVersioningService } from './resources/versioning.service';
export * from './models/common.model';
export * from './models/metadata.model';
export * from './models/user.model';
export * from './models/recipient.model';
export * from './models/virtual-account.model';
export * from './models/payout.model';
export * from './models/client-config.model';
export * from './models/rfi.model';

// Validation before I/O (spec 2.5, 4.3, 8)
export * from './validation';

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
  canonicalPartnerStatus,
  isKnownPartnerEvent,
  isKnownPartnerEventView,
  hasSyntheticEventId,
} from './webhooks/envelope.parser';
export { InMemoryInboxStore } from './webhooks/inbox.memory-store';
export type { InMemoryInboxStoreOptions } from './webhooks/inbox.memory-store';
export { PayoutStatusDeduper } from './webhooks/payout-status.deduper';
export type { PayoutStatusDeduperOptions } from './webhooks/payout-status.deduper';
export { toPartnerPayoutStatusEvent } from './webhooks/payout-status.mapper';
export { PartnerWebhookDispatcher, emitPartnerPayoutStatus } from './webhooks/webhook.dispatcher';
export type { PartnerDispatchResult } from './webhooks/webhook.dispatcher';
export { PartnerWebhookService, headerValue } from './webhooks/partner-webhook.service';
export type {
  PartnerWebhookHeaders,
  PartnerWebhookHandleResult,
  PartnerWebhookHandleOptions,
  PartnerProcessOutcome,
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
  resolvePartnerWebhookConfig,
} from './webhooks/webhook.config';
export type { PartnerWebhookConfig } from './webhooks/webhook.config';
export { readPartnerRawBody } from './webhooks/raw-body.reader';
export type { PartnerRawBodyRequest } from './webhooks/raw-body.reader';
