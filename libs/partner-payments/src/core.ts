/**
 * The framework-free core of @partner-payments/nestjs: options, errors, auth, HTTP, resources,
 * models and validation. Nothing here imports Nest at runtime, so it works in scripts and workers
 * (createPartnerPaymentsClient) and is unit-tested without Nest. index.ts re-exports all of it.
 */
export * from './partner-payments.options';
export * from './partner-payments.constants';
export {
  resolvePartnerOptions,
  DEFAULT_RATE_LIMIT,
  DEFAULT_RETRY_OPTIONS,
  DEFAULT_REFERENCE_DATA_CACHE_TTL_MS,
} from './options.resolver';
export { createPartnerPaymentsClient, buildPartnerClientGraph } from './partner-payments.factory';
export type { PartnerClientDependencies, PartnerClientGraph } from './partner-payments.factory';
export type { ResolvedPartnerOptions } from './options.resolver';

// Errors (spec 7)
export * from './errors/partner.error';
export * from './errors/partner-api.error';
export { parseErrorBody, normaliseErrorCode } from './errors/error-body.parser';
export type { ParsedErrorBody } from './errors/error-body.parser';
export { createPartnerApiError, createPartnerNetworkError } from './errors/error.factory';

// Auth and HTTP
export { PartnerTokenManager } from './auth/token.manager';
export { PartnerHttpClient } from './http/partner-http.client';
export { PartnerTransport } from './http/partner.transport';
export type { PartnerAxiosLike } from './http/partner.transport';
export { PartnerApiVersionState } from './http/api-version.state';
export * from './http/http.types';
export * from './http/retry.policy';
export { PartnerRateLimiter, TokenBucketRateLimiter, systemClock } from './http/rate.limiter';
export type { Clock, PartnerRateBudget, PartnerRateLimit } from './http/rate.limiter';
export { requiresIdempotencyKey, newIdempotencyKey, resolveIdempotencyKey } from './http/idempotency.policy';
export { buildPartnerHeaders, resolveVersionHeader } from './http/headers.builder';
export { joinUrl, encodePathSegment, buildQueryString, buildUrl } from './http/url.util';

// Observability: hooks' event types, span attribute names, route templates (README "Observability")
export type {
  PartnerTokenEvent,
  PartnerRateLimitWaitEvent,
  PartnerWebhookObservation,
  PartnerWebhookRefusalReason,
} from './observability/hooks';
export { PARTNER_TRACER_NAME, PartnerSpanAttribute } from './observability/partner.tracing';
export { partnerRouteTemplate } from './observability/route.template';

// Resources and models
export { PartnerPaymentsClient } from './resources/partner-payments.client';
export { PartnerUsersService } from './resources/users.service';
export { toPartnerUser, toPartnerUserUpdateResult, toPartnerVerification } from './models/user.mapper';
export { parsePartnerTimestamp } from './models/timestamp.util';
export { PartnerRecipientsService } from './resources/recipients.service';
export { PartnerVirtualAccountsService } from './resources/virtual-accounts.service';
export { PartnerPayoutsService } from './resources/payouts.service';
export { PartnerRfisService } from './resources/rfis.service';
export type {
  ListRfisParams,
  AnswerRfiItemsOptions,
  UploadRfiDocumentsOptions,
  RfiDocumentDownload,
} from './resources/rfis.service';
export { PartnerClientConfigService } from './resources/client-config.service';
export { PartnerVersioningService } from './resources/versioning.service';
export { PartnerReferenceDataService } from './resources/reference-data.service';
export * from './models/common.model';
export * from './models/status.util';
export * from './models/metadata.model';
export * from './models/user.model';
export * from './models/recipient.model';
export * from './models/virtual-account.model';
export * from './models/payout.model';
export * from './models/client-config.model';
export * from './models/rfi.model';
export * from './models/reference-data.model';

// Validation before I/O (spec 2.5, 4.3, 8)
export * from './validation';
