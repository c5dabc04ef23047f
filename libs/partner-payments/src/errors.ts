/**
 * @partner-payments/nestjs/errors: every error class the package throws (spec 7), for `instanceof`
 * checks on a specific failure. The bases (PartnerError, PartnerApiError, PartnerLocalValidationError,
 * PartnerWebhookError) are also exported by the package root.
 */
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
