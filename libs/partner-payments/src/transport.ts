/**
 * @partner-payments/nestjs/transport: the options of the HTTP layer under the resources
 * (docs/nestjs/transport.md): retries, the client-side rate limit, and the contract of a rate
 * budget shared by replicas (`rateLimit.budget`, e.g. kept in your database).
 */
export type { PartnerRetryOptions, PartnerRateLimitOptions } from './partner-payments.options';
export type { PartnerRateBudget, PartnerRateLimit } from './http/rate-limiter.policy';
