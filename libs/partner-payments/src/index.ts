/**
 * Public surface of @partner-payments/nestjs: an explicit list, nothing else is exported.
 * What only the library's own code and tests need (transport, rate limiter, URL and header helpers,
 * mappers, validation rules, inbox internals) stays importable by path inside this repository and is
 * not reachable from the published package (package.json `exports`).
 */
// Module, options, DI helpers
// (not ConfigurableModuleClass / MODULE_OPTIONS_TOKEN / OPTIONS_TYPE: builder internals whose generic
// names would clash with a host's own `export *`; the options token is PARTNER_PAYMENTS_OPTIONS)
export { PartnerPaymentsModule } from './partner-payments.module';
export type {
  PartnerPaymentsModuleForRootOptions,
  PartnerPaymentsModuleAsyncOptions,
  PartnerPaymentsOptionsFactory,
} from './partner-payments.module';
export type {
  PartnerPaymentsModuleOptions,
  PartnerRetryOptions,
  PartnerRateLimitOptions,
  PartnerWebhookOptions,
} from './partner-payments.options';
export { PARTNER_PAYMENTS_OPTIONS, PARTNER_INBOX_STORE } from './partner-payments.constants';
export { InjectPartnerOptions, InjectPartnerLogger } from './partner-payments.decorator';
export { createPartnerPaymentsClient } from './client-graph.util';
export type { PartnerRateBudget, PartnerRateLimit } from './http/rate-limiter.policy';

// The client facade and resource services; the token and API version state (health, pinning)
export { PartnerPaymentsClient } from './resources/partner-payments.client';
export { PartnerUsersService } from './resources/users.service';
export { PartnerRecipientsService } from './resources/recipients.service';
export { PartnerVirtualAccountsService } from './resources/virtual-accounts.service';
export { PartnerPayoutsService } from './resources/payouts.service';
export { PartnerRfisService } from './resources/rfis.service';
export { PartnerClientConfigService } from './resources/client-config.service';
export { PartnerVersioningService } from './resources/versioning.service';
export { PartnerReferenceDataService } from './resources/reference-data.service';
export { PartnerQuotationsService } from './resources/quotations.service';
export { PartnerTokenManager } from './auth/token-manager.service';
export { PartnerApiVersionState } from './http/api-version-state.service';
// Any route the resources do not cover (docs/nestjs/calling-the-partner.md, "Any other route"), and its events$
export { PartnerHttpClient } from './http/partner-http.client';

// Models (spec 3, 4) and the status rules a caller decides with
export type { PartnerCallOptions, PartnerPage } from './models/common.model';
export type { PartnerMetadata } from './models/metadata.model';
export { canonicalPartnerStatus } from './models/status.util';
export { parsePartnerTimestamp } from './models/timestamp.util';
export type { PartnerUser } from './models/user.model';
export { isTerminalUserStatus } from './models/user.model';
export type {
  CreatePartnerUserInput,
  CreatePartnerIndividualUserInput,
  CreatePartnerBusinessUserInput,
  UpdatePartnerUserInput,
} from './models/user-input.model';
export type { PartnerRecipient, CreatePartnerRecipientInput } from './models/recipient.model';
export { maskAccountNumber } from './models/recipient.model';
export type {
  PartnerVirtualAccount,
  PartnerVirtualAccountBalance,
  CreatePartnerVirtualAccountInput,
  PartnerDeposit,
} from './models/virtual-account.model';
export {
  isVirtualAccountUsable,
  canReceiveFunds,
  isTerminalDepositStatus,
} from './models/virtual-account.model';
export type {
  PartnerPayout,
  PartnerPayoutPreview,
  CreatePartnerPayoutInput,
  PartnerPayoutStatusChange,
  PartnerPayoutStatusChangeReason,
} from './models/payout.model';
export { PartnerPayoutStatus, isTerminalPayoutStatus, decidePayoutStatusChange } from './models/payout.model';
export type { PartnerClientConfig } from './models/client-config.model';
export type {
  CreatePartnerCryptoPayoutInput,
  CreatePartnerQuotationInput,
  PartnerCryptoPayout,
  PartnerQuotation,
} from './models/quotation.model';
export type {
  PartnerBank,
  PartnerBankList,
  PartnerCountry,
  PartnerCountryList,
  PartnerCountrySubdivision,
} from './models/reference-data.model';
export { partnerPostalCodePattern } from './models/reference-data.model';
export type { Rfi, RfiListEntry, RfiItem, RfiAnswerInput } from './models/rfi.model';
export type { UploadSource } from './validation/upload/upload-source.util';
export { validateRfiAnswers } from './validation/rfi/rfi-answer.rules';

// Errors (spec 7)
export { PartnerError, PartnerLocalValidationError } from './errors/partner.errors';
export type { PartnerFieldError } from './errors/partner.errors';
export {
  PartnerApiError,
  PartnerAuthenticationError,
  PartnerPermissionError,
  PartnerValidationError,
  PartnerRfiAnswerError,
  PartnerNotFoundError,
  PartnerConflictError,
  PartnerIdempotencyConflictError,
  PartnerRateLimitError,
  PartnerServerError,
  PartnerConnectionError,
  PartnerTimeoutError,
  PartnerConfigurationError,
  PartnerVirtualAccountNotActiveError,
  PartnerSandboxOnlyOperationError,
  PartnerPagingError,
} from './errors/partner-api.errors';
export type { PartnerItemError } from './errors/partner-api.errors';
export {
  PartnerWebhookError,
  PartnerWebhookSignatureError,
  PartnerWebhookPayloadError,
  PartnerWebhookBodyTooLargeError,
  PartnerWebhookConfigurationError,
  PartnerWebhookInboxError,
} from './webhooks/webhook.errors';

// Webhook events (spec 6): names, payloads, the typed listener decorator
export { PartnerEvent, PartnerDerivedEvent } from './webhooks/events/partner-event.constants';
export type { PartnerEventName } from './webhooks/events/partner-event.constants';
export type {
  PartnerEventPayloads,
  PartnerEventMap,
  PartnerEventOf,
  PartnerWebhookEvent,
  PartnerUnknownEvent,
  PartnerPayoutStatusEvent,
} from './webhooks/events/partner-event.types';
export { OnPartnerEvent } from './webhooks/events/on-partner-event.decorator';
export { isKnownPartnerEvent } from './webhooks/events/envelope.util';

// Webhook entry: guard, ingest and processing, the inbox store contract
export { PartnerWebhookGuard } from './webhooks/partner-webhook.guard';
export { VerifiedPartnerBody } from './webhooks/verified-partner-body.decorator';
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
export { PartnerWebhookDispatcher } from './webhooks/events/webhook-dispatcher.service';
// The inbox store contract and the in-memory store (also the `inbox` entry point)
export * from './inbox';

// Signature helpers (spec 6.2)
export {
  computePartnerSignature,
  verifyPartnerSignature,
  PARTNER_SIGNATURE_HEADER,
} from './webhooks/signature.util';

// Observability hooks (docs/nestjs/observability.md)
export type { PartnerHttpEvent } from './http/http.types';
export type {
  PartnerTokenEvent,
  PartnerRateLimitWaitEvent,
  PartnerWebhookObservation,
} from './observability/hooks.util';
export {
  inSampledOutTrace,
  PARTNER_TRACER_NAME,
  PartnerSpanAttribute,
} from './observability/partner-tracing.util';
export { currentPartnerLogContext } from './observability/webhook-instrumentation.util';
