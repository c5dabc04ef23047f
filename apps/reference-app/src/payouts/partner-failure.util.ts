import {
  PartnerApiError,
  PartnerAuthenticationError,
  PartnerConflictError,
  PartnerConnectionError,
  PartnerLocalValidationError,
  PartnerRateLimitError,
  PartnerServerError,
} from '@partner-payments/nestjs';

/**
 * Why a keyed payout create failed, by cause (issue 9 defect 2), the one classification POST
 * /payouts and its re-drive share:
 * - `unknown-outcome`: 5xx, 429, timeout, reset, anything unexpected. The partner may or may not
 *   have acted; the same key is safe to send again (it replays the original answer).
 * - `in-progress`: 409, the partner still works on the key (or holds another answer for it); the
 *   same key, later, gets its stored answer.
 * - `our-configuration`: 401/403 after the client's re-authentication: our credentials or account,
 *   not the request. Also any failure of the token call itself (POST /auth answering a 4xx the
 *   module wraps as PartnerAuthenticationError, e.g. a 404 or 400 from a gateway): the request was
 *   never sent, so its status says nothing about the request. Nothing was created; the key stays
 *   usable once the configuration is fixed.
 * - `refused`: any other 4xx, or our own validation before any I/O: this request is refused.
 */
export type PartnerFailureKind = 'unknown-outcome' | 'in-progress' | 'our-configuration' | 'refused';

export interface PartnerFailure {
  kind: PartnerFailureKind;
  /** The partner's HTTP status of a refusal (400 for a local validation error); null otherwise. */
  status: number | null;
  message: string;
}

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
