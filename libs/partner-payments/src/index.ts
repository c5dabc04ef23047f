/**
 * @partner-payments/nestjs: what an app needs every day, an explicit list of at most 40 names
 * (public-surface.spec.ts lists them). The rest of the public surface is under subpaths, each an
 * explicit list too:
 *   @partner-payments/nestjs/models         every resource shape, input type and status rule
 *   @partner-payments/nestjs/errors         every error class
 *   @partner-payments/nestjs/webhooks       your own webhook route, processing, event and signature helpers
 *   @partner-payments/nestjs/inbox          the inbox store contract (another database) and the in-memory store
 *   @partner-payments/nestjs/transport      retry and rate-limit options, the shared rate budget contract
 *   @partner-payments/nestjs/observability  the hooks' event types, span names and attributes, log context
 * Anything else (the HTTP pipeline, token manager, dispatcher, mappers, validation rules) is internal: not
 * reachable from the published package (package.json `exports`). The token manager, the API version
 * state and the raw HTTP client are reached through the client: `client.auth`, `client.versionState`,
 * `client.http`.
 */
// Module and its options
// (not ConfigurableModuleClass / MODULE_OPTIONS_TOKEN / OPTIONS_TYPE: builder internals whose generic
// names would clash with a host's own `export *`; the options token is PARTNER_PAYMENTS_OPTIONS)
export { PartnerPaymentsModule } from './partner-payments.module';
export type {
  PartnerPaymentsModuleForRootOptions,
  PartnerPaymentsModuleAsyncOptions,
  PartnerPaymentsOptionsFactory,
} from './partner-payments.module';
export type { PartnerPaymentsModuleOptions } from './partner-payments.options';
export { PARTNER_PAYMENTS_OPTIONS } from './partner-payments.constants';

// The client facade (every resource, `client.http` for any other route) and the resource services
export { createPartnerPaymentsClient } from './client-graph.util';
export { PartnerPaymentsClient } from './resources/partner-payments.client';
export { PartnerUsersService } from './resources/users/users.service';
export { PartnerRecipientsService } from './resources/recipients/recipients.service';
export { PartnerVirtualAccountsService } from './resources/virtual-accounts/virtual-accounts.service';
export { PartnerPayoutsService } from './resources/payouts/payouts.service';
export { PartnerRfisService } from './resources/rfis/rfis.service';
export { PartnerClientConfigService } from './resources/client-config/client-config.service';
export { PartnerVersioningService } from './resources/versioning/versioning.service';
export { PartnerReferenceDataService } from './resources/reference-data/reference-data.service';
export { PartnerQuotationsService } from './resources/quotations/quotations.service';

// The main resources (spec 3, 4); every shape and status rule: @partner-payments/nestjs/models
export type { PartnerUser } from './resources/users/user.model';
export type { PartnerRecipient } from './resources/recipients/recipient.model';
export type {
  PartnerVirtualAccount,
  PartnerDeposit,
} from './resources/virtual-accounts/virtual-account.model';
export type { PartnerPayout } from './resources/payouts/payout.model';
export { PartnerPayoutStatus } from './resources/payouts/payout.model';
export type { Rfi } from './resources/rfis/rfi.model';

// Webhook events (spec 6): names, payloads, the typed listener decorator
export { PartnerEvent, PartnerDerivedEvent } from './webhooks/events/partner-event.constants';
export type {
  PartnerEventPayloads,
  PartnerEventOf,
  PartnerWebhookEvent,
  PartnerPayoutStatusEvent,
} from './webhooks/events/partner-event.types';
export { OnPartnerEvent } from './webhooks/events/on-partner-event.decorator';

// Webhook entry: the guard and the verified body
export { PartnerWebhookGuard } from './webhooks/partner-webhook.guard';
export { VerifiedPartnerBody } from './webhooks/verified-partner-body.decorator';

// Error bases (spec 7); every subclass: @partner-payments/nestjs/errors
export { PartnerError, PartnerLocalValidationError } from './errors/partner.errors';
export { PartnerApiError } from './errors/partner-api.errors';
export { PartnerWebhookError } from './webhooks/webhook.errors';
