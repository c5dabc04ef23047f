/**
 * @partner-payments/nestjs/transport: the options of the HTTP layer under the resources
 * (docs/nestjs/transport.md): retries, the client-side rate limit, and the contract of a rate
 * budget shared by replicas (`rateLimit.budget`, e.g. kept in your database); and the types of the
 * client's transport handles: `client.http` (any other route), `client.auth` (the token) and
 * `client.versionState` (the API version pin).
 */
export type { PartnerRetryOptions, PartnerRateLimitOptions } from './partner-payments.options';
export type { PartnerRateBudget, PartnerRateLimit } from './http/rate-limiter.policy';
export type { PartnerAuth } from './auth/partner-auth.types';
export type { PartnerVersionState } from './http/api-version-state.service';
export type {
  PartnerApiArea,
  PartnerHttp,
  PartnerHttpMethod,
  PartnerQuery,
  PartnerQueryValue,
  PartnerRequest,
  PartnerResponse,
  PartnerResponseMeta,
} from './http/http.types';
