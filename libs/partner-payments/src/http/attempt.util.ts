import { createPartnerApiError, createPartnerNetworkError } from '../errors/error-factory.util';
import type { PartnerApiError } from '../errors/partner-api.errors';
import type { PartnerHttpEvent, TransportResult } from './http.types';
import { partnerRouteTemplate } from '../observability/route-template.util';
import { parseRetryAfter, type AttemptOutcome } from './retry.policy';

/**
 * What one attempt's result means, shared by PartnerHttpClient and PartnerTokenManager (POST /auth), so
 * both retry, report and fail the same way.
 */

/** What the retry policy needs to know of a failed attempt. */
export function toAttemptOutcome(res: TransportResult): AttemptOutcome {
  return res.kind === 'response'
    ? { kind: 'response', status: res.status, retryAfterMs: parseRetryAfter(res.headers['retry-after']) }
    : { kind: 'network', code: res.code };
}

/** The lifecycle event of an attempt's outcome: no bodies, no headers, no secrets. */
export function toOutcomeEvent(
  method: string,
  path: string,
  attempt: number,
  res: TransportResult,
  willRetry: boolean,
): PartnerHttpEvent {
  // One literal per kind, route included: spreading a partial event into a new object per attempt
  // cost 4% of a CPU-bound call with a metrics hook listening (issue 13, bench/README.md).
  const route = partnerRouteTemplate(path);
  return res.kind === 'response'
    ? {
        type: 'response',
        method,
        path,
        route,
        attempt,
        status: res.status,
        durationMs: res.durationMs,
        requestId: res.requestId,
        willRetry,
      }
    : {
        type: 'network-error',
        method,
        path,
        route,
        attempt,
        errorCode: res.code,
        durationMs: res.durationMs,
        willRetry,
      };
}

/** The typed error (spec 7) for an attempt that failed and will not be retried. */
export function toPartnerError(
  res: TransportResult,
  context: { method: string; path: string; idempotencyKey: string | null },
): PartnerApiError {
  const { method, path, idempotencyKey } = context;
  if (res.kind === 'network') {
    return createPartnerNetworkError({
      errorCode: res.code,
      timedOut: res.timedOut,
      message: res.message,
      idempotencyKey,
      method,
      path,
      cause: res.cause,
    });
  }
  return createPartnerApiError({
    status: res.status,
    body: res.data,
    requestId: res.requestId,
    idempotencyKey,
    retryAfterMs: parseRetryAfter(res.headers['retry-after']),
    method,
    path,
  });
}
