/** The `payouts` options of PartnerPaymentsTypeOrmModule: PartnerPayoutOutbox's re-drive. */
export interface PartnerPayoutOutboxOptions {
  /**
   * How long a pending request is left alone before `redrive()` sends it again, in ms: longer than
   * one full partner call of the module (its token calls and the create, each with their retries
   * and Retry-After waits), or a re-send races the first call's answer and the caller sees a 409.
   * An integer from 1000. With PartnerPaymentsModule global, checked at boot against its options
   * (partnerMinimumRedriveGraceMs): shorter fails the boot naming this field. Default 300000
   * (5 min), or that minimum when longer.
   */
  graceMs?: number;
  /**
   * How old a pending request may get and still be sent again, in ms; past it the request is
   * marked `needs_review` and never sent (the contract does not say how long the partner keeps a
   * key, and a forgotten key would create a second payout). Greater than `graceMs`, and at most
   * 86400000 (24 h, the partner's key TTL: evidence §11 N40), the default.
   */
  maxAgeMs?: number;
  /** Requests `redrive()` reads per batch. An integer from 1 to 1000. Default 50. */
  batchSize?: number;
}

export interface PartnerPayoutOutboxResolvedOptions {
  graceMs: number;
  maxAgeMs: number;
  batchSize: number;
}

export const DEFAULT_PAYOUT_GRACE_MS = 300_000;
/** How long the partner keeps an Idempotency-Key (evidence §11 N40). */
const KEY_TTL_MS = 86_400_000;
export const DEFAULT_PAYOUT_MAX_AGE_MS = KEY_TTL_MS;
export const DEFAULT_PAYOUT_BATCH_SIZE = 50;
const MAX_BATCH_SIZE = 1000;

/** A problem with one field: `[field, message]`, the caller throws it as its configuration error. */
export type OptionProblem = [field: string, message: string];

/** Merges the defaults and validates; the first problem found, naming `payouts.<field>`, or the options. */
export function resolvePayoutOutboxOptions(
  options: PartnerPayoutOutboxOptions | undefined,
): PartnerPayoutOutboxResolvedOptions | OptionProblem {
  if (options !== undefined && (typeof options !== 'object' || options === null || Array.isArray(options)))
    return ['payouts', 'must be an object'];
  const graceMs = options?.graceMs ?? DEFAULT_PAYOUT_GRACE_MS;
  if (!Number.isInteger(graceMs) || graceMs < 1000)
    return ['payouts.graceMs', `must be an integer of at least 1000 (ms), got ${String(graceMs)}`];
  const maxAgeMs = options?.maxAgeMs ?? DEFAULT_PAYOUT_MAX_AGE_MS;
  if (!Number.isInteger(maxAgeMs) || maxAgeMs <= graceMs)
    return [
      'payouts.maxAgeMs',
      `must be an integer greater than payouts.graceMs (${graceMs} ms), got ${String(maxAgeMs)}: with no time between them every request would be marked needs_review without a re-send`,
    ];
  // The partner keeps a key 24 h (evidence §11 N40): a key re-sent later may create a second payout.
  if (maxAgeMs > KEY_TTL_MS)
    return [
      'payouts.maxAgeMs',
      `must be at most ${KEY_TTL_MS} (the partner's 24 h Idempotency-Key TTL), got ${String(maxAgeMs)}`,
    ];
  const batchSize = options?.batchSize ?? DEFAULT_PAYOUT_BATCH_SIZE;
  if (!Number.isInteger(batchSize) || batchSize < 1 || batchSize > MAX_BATCH_SIZE)
    return ['payouts.batchSize', `must be an integer from 1 to ${MAX_BATCH_SIZE}, got ${String(batchSize)}`];
  return { graceMs, maxAgeMs, batchSize };
}
