import type { LoggerService } from '@nestjs/common';
import {
  PartnerApiError,
  PartnerAuthenticationError,
  PartnerConnectionError,
  PartnerRateLimitError,
  PartnerServerError,
} from '../errors/partner-api.errors';
import type { AttemptOutcome } from '../http/retry.policy';

/** What a failed POST /auth means: for the error a caller sees, and for a call's retry loop. */

/** The partner unavailable (5xx, no answer, 429), as opposed to our credentials refused. */
export function isUnavailable(err: unknown): boolean {
  return (
    err instanceof PartnerServerError ||
    err instanceof PartnerConnectionError ||
    err instanceof PartnerRateLimitError
  );
}

/**
 * How a call's retry loop judges a failed token step: the partner unavailable is the /auth attempt's
 * outcome (a non-JSON 2xx counts as the 502 it stands for, evidence §8); anything else (credentials
 * refused, an unusable answer) is null: not retried.
 */
export function tokenFailureOutcome(err: unknown): AttemptOutcome | null {
  if (err instanceof PartnerRateLimitError)
    return { kind: 'response', status: 429, retryAfterMs: err.retryAfterMs };
  if (err instanceof PartnerServerError) {
    const status = err.status !== null && err.status >= 500 ? err.status : 502;
    return { kind: 'response', status, retryAfterMs: null };
  }
  if (err instanceof PartnerConnectionError) return { kind: 'network', code: err.code.toUpperCase() };
  return null;
}

/**
 * Classifies a failed POST /auth by cause: the partner unavailable (5xx,
 * timeout, reset, 429) keeps its class (PartnerServerError, PartnerConnectionError,
 * PartnerRateLimitError), so callers treat it as "retry later, same key" and never as a refusal of
 * their request; the request itself was never sent. Our credentials refused (401, and any other
 * 4xx of /auth) is a PartnerAuthenticationError: a configuration problem.
 */
export function toAuthError(
  cause: PartnerApiError,
  clientIdAccepted: boolean,
  logger: LoggerService,
): PartnerApiError {
  if (cause instanceof PartnerAuthenticationError) return cause;
  if (cause.status === 500 && !clientIdAccepted) {
    // evidence §1: "the client should also treat a 500 from /auth as a credential failure"
    // (an unknown client_id answers 500 there), until the client_id has been accepted once: after
    // that a 500 is the partner failing and keeps its class below, as a 502/503/504, a timeout or
    // a reset do.
    logger.warn(
      'Partner authentication failed: POST /auth answered 500, which the partner answers for an unknown client_id; check the configured client id',
    );
    return new PartnerAuthenticationError({
      status: 500,
      code: cause.code,
      message: `Authentication failed: POST /auth answered 500, the partner's answer to an unknown client_id (${cause.message})`,
      details: cause.details,
      body: cause.body,
      requestId: cause.requestId,
      cause,
    });
  }
  if (isUnavailable(cause)) {
    logger.warn(`Partner authentication unavailable: ${cause.message}`);
    return cause;
  }
  // evidence §11 N1, C2: a key of the other stage gets the gateway's 403 on POST /auth; sandbox
  // keys work only under {base_url}/sandbox, production keys only on the bare base.
  const stageHint =
    cause.status === 403
      ? ' (an api key of the other stage? sandbox credentials work only under {base_url}/sandbox: check environment and baseUrl)'
      : '';
  logger.warn(`Partner authentication failed: ${cause.message}${stageHint}`);
  return new PartnerAuthenticationError({
    status: cause.status,
    code: cause.status === null ? `auth_${cause.code}` : cause.code,
    message: `Authentication failed: ${cause.message}${stageHint}`,
    details: cause.details,
    body: cause.body,
    requestId: cause.requestId,
    cause,
  });
}
