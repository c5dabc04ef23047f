import { PartnerApiError, PartnerLocalValidationError } from '@partner-payments/nestjs';
import {
  PartnerAuthenticationError,
  PartnerConflictError,
  PartnerConnectionError,
  PartnerRateLimitError,
  PartnerServerError,
} from '@partner-payments/nestjs/errors';

/**
 * Why a keyed payout create failed, by cause:
 * - `unknown-outcome`: 5xx, 429, timeout, reset, anything unexpected. The partner may or may not
 *   have acted; the same key is safe to send again (spec 8: it replays the original answer).
 * - `in-progress`: 409, the partner still works on the key (or holds another answer for it); the
 *   same key, later, gets its stored answer.
 * - `our-configuration`: 401/403 after the module's re-authentication (spec 5.7): our credentials
 *   or account, not the request; also a failed token call, when the request was never sent.
 *   Nothing was created; the key stays usable once the configuration is fixed.
 * - `refused`: any other 4xx, or the module's validation before any I/O: this request is refused.
 */
export type PartnerFailureKind = 'unknown-outcome' | 'in-progress' | 'our-configuration' | 'refused';

export interface PartnerFailure {
  kind: PartnerFailureKind;
  /** The partner's HTTP status (400 for the module's own validation); null for an unknown outcome. */
  status: number | null;
  message: string;
}

/** Classifies an error of a partner call (PartnerPayoutsService.create, or any other the module makes). */
export function classifyPartnerFailure(error: unknown): PartnerFailure {
  const message = error instanceof Error ? error.message : String(error);
  if (
    error instanceof PartnerServerError ||
    error instanceof PartnerConnectionError ||
    error instanceof PartnerRateLimitError ||
    !(error instanceof PartnerApiError || error instanceof PartnerLocalValidationError)
  ) {
    return { kind: 'unknown-outcome', status: null, message };
  }
  if (error instanceof PartnerConflictError) return { kind: 'in-progress', status: 409, message };
  if (error instanceof PartnerAuthenticationError)
    return { kind: 'our-configuration', status: error.status, message };
  const status =
    error instanceof PartnerApiError && error.status && error.status >= 400 && error.status < 500
      ? error.status
      : 400;
  if (status === 401 || status === 403) return { kind: 'our-configuration', status, message };
  return { kind: 'refused', status, message };
}
