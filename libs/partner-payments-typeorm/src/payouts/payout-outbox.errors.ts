import type { PartnerFailure } from './partner-failure.util';

/** The Idempotency-Key was stored with another request; `field` names the first that differs. Nothing was sent. */
export class PartnerPayoutKeyReusedError extends Error {
  override readonly name = 'PartnerPayoutKeyReusedError';

  constructor(
    readonly idempotencyKey: string,
    readonly field: string,
  ) {
    super(`Idempotency-Key ${idempotencyKey} was already used with another request (${field} differs)`);
  }
}

/**
 * The request stayed pending past the maximum age (or an operator holds it): whether the partner
 * created it is unknown, and it is never sent again (the partner may have forgotten the key).
 */
export class PartnerPayoutNeedsReviewError extends Error {
  override readonly name = 'PartnerPayoutNeedsReviewError';

  constructor(readonly idempotencyKey: string) {
    super(
      `payout request ${idempotencyKey} stayed pending past the maximum age: an operator must check the partner; it is not sent again`,
    );
  }
}

/**
 * The partner's call failed; `failure.kind` says what the caller may do (see
 * PartnerFailureKind). The row stays pending except for `refused`, which marks it rejected.
 */
export class PartnerPayoutFailedError extends Error {
  override readonly name = 'PartnerPayoutFailedError';

  constructor(
    readonly idempotencyKey: string,
    readonly failure: PartnerFailure,
    options?: { cause?: unknown },
  ) {
    super(failure.message, options);
  }
}

/** An operator action on a request that is not (or no longer) in the state it needs. */
export class PartnerPayoutStateError extends Error {
  override readonly name = 'PartnerPayoutStateError';

  constructor(
    readonly idempotencyKey: string,
    readonly state: string | null,
  ) {
    super(
      state === null
        ? `payout request ${idempotencyKey} is not stored`
        : `payout request ${idempotencyKey} is ${state}, not needs_review`,
    );
  }
}
