import type { PartnerPaymentsModuleOptions } from '@partner-payments/nestjs';
import { PartnerTypeOrmConfigurationError } from '../partner-payments-typeorm.errors';
import { DEFAULT_PAYOUT_GRACE_MS, type PartnerPayoutOutboxResolvedOptions } from './payout-outbox.options';

/** PartnerPaymentsModule's defaults for the options the rule reads (its documented defaults). */
const MODULE_TIMEOUT_MS = 30_000;
const MODULE_MAX_RETRIES = 2;
const MODULE_MAX_RETRY_AFTER_MS = 30_000;

/**
 * The longest one logical partner call of PartnerPaymentsModule can take, besides waiting for its
 * rate limiter (a local bucket's wait is short; a shared budget's is the app's to bound): a token
 * call, the call answered 401, a second token call (spec 5.7: re-authenticate and retry once,
 * which uses no retry), then the call again; each token call and the call make up to `maxRetries`
 * retries of `timeoutMs` with a capped Retry-After wait before each retry:
 * 2 x ((R + 1) x T + R x W) for the token calls, (R + 2) x T + R x W for the call. A pending
 * request younger than this may still get its answer, so `payouts.graceMs` must be at least this:
 * a re-send racing the first call is answered 409 (same key), which the caller would see.
 */
export function partnerMinimumRedriveGraceMs(
  timeoutMs: number,
  maxRetries: number,
  maxRetryAfterMs = MODULE_MAX_RETRY_AFTER_MS,
): number {
  return (3 * maxRetries + 4) * timeoutMs + 3 * maxRetries * maxRetryAfterMs;
}

/**
 * The outbox's options against the module's partner calls: `payouts.graceMs` given below the
 * minimum fails the boot naming the field; left unset, the default grows to the minimum.
 */
export function payoutOptionsForPartner(
  payouts: PartnerPayoutOutboxResolvedOptions,
  graceGiven: boolean,
  partner: Pick<PartnerPaymentsModuleOptions, 'timeoutMs' | 'maxRetries' | 'retry'>,
): PartnerPayoutOutboxResolvedOptions {
  const num = (value: unknown, fallback: number) => (typeof value === 'number' ? value : fallback);
  const minimum = partnerMinimumRedriveGraceMs(
    num(partner.timeoutMs, MODULE_TIMEOUT_MS),
    num(partner.maxRetries, MODULE_MAX_RETRIES),
    num(partner.retry?.maxRetryAfterMs, MODULE_MAX_RETRY_AFTER_MS),
  );
  if (payouts.graceMs >= minimum) return payouts;
  if (graceGiven)
    throw new PartnerTypeOrmConfigurationError(
      'payouts.graceMs',
      `must be at least ${minimum} (ms), got ${payouts.graceMs}: one full partner call of PartnerPaymentsModule (two token calls and the create, each with maxRetries retries of timeoutMs and Retry-After waits of up to retry.maxRetryAfterMs) may take that long, and a re-send racing it is answered 409`,
    );
  const graceMs = Math.max(DEFAULT_PAYOUT_GRACE_MS, minimum);
  if (payouts.maxAgeMs <= graceMs)
    throw new PartnerTypeOrmConfigurationError(
      'payouts.maxAgeMs',
      `must be greater than payouts.graceMs (${graceMs} ms, one full partner call of PartnerPaymentsModule), got ${payouts.maxAgeMs}`,
    );
  return { ...payouts, graceMs };
}
