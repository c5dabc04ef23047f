import type { PartnerRateLimitOptions } from '@partner-payments/nestjs/transport';
import type { AppConfig } from '../config/app.config';
import { type PartnerUnitOfWork } from '@partner-payments/typeorm';
import type { PartnerConnection } from '../sandbox/partner-connection.providers';
import { DatabaseRateBudget } from './database-rate-budget.store';

/**
 * The module's `rateLimit` option from the configuration: PARTNER_RATE_BUDGET=database (default)
 * keeps the bucket in the app's database, so every replica spends the account's one budget.
 */
export function partnerRateLimitOptions(
  config: AppConfig,
  conn: PartnerConnection,
  uow: PartnerUnitOfWork,
): PartnerRateLimitOptions | false {
  const { perSecond, burst, budget } = config.partner.rateLimit;
  if (budget === 'off') return false;
  const limit = { requestsPerSecond: perSecond, burst };
  if (budget === 'process') return limit;
  // The environment goes with the key, not into the URL: appended to the URL it kept the URL's
  // trailing slash from being normalised away, and replicas configured with `https://p.example` and
  // `https://p.example/` got a bucket each (twice the account's limit together).
  const key = DatabaseRateBudget.accountKeyFor(conn.baseUrl, `${conn.environment}\n${conn.apiKey}`);
  return { ...limit, budget: new DatabaseRateBudget(uow, key) };
}
