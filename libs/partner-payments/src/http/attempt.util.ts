import { createPartnerApiError, createPartnerNetworkError } from '../errors/error-factory.util';
import { PartnerServerError, type PartnerApiError } from '../errors/partner-api.errors';
import type { PartnerHttpEvent, TransportResult } from './http.types';
import { partnerRouteTemplate } from '../observability/route-template.util';
import {
  computeBackoffMs,
  parseRetryAfter,
  shouldRetry,
  type AttemptOutcome,
  type BackoffOptions,
} from './retry.policy';

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
  // is a measurable cost of a CPU-bound call with a metrics hook listening (bench/README.md).
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

/** Content types no JSON API answers with: a gateway's, proxy's or CDN's own page. */
const TEXT_CONTENT_TYPE = /^\s*text\//i;
const HTML_CONTENT_TYPE = /^\s*text\/html\b/i;

/**
 * Whether a 2xx answer to a call that expects JSON carries a body that is not JSON. Every partner
 * answer with a body is JSON (spec 4, 7.1), but a gateway in front of it answers 200 with its own
 * text: `GET /banks` gave 200 with a Cloudflare 522 page or "Blocked" (evidence §8 [T3r DRIFT-7,
 * 8, 9]). axios hands such a body back as the unparsed string (silentJSONParsing), and resources
 * reading it as an object saw `{}`: an empty country list cached for a day, "no liquidation
 * addresses" right before creating a second one. So: a string (it did not parse), any HTML, or a
 * text/* page whose body parsed to a bare value ("522") is unusable. A text/plain label on a JSON
 * object or array is still JSON. An empty body is usable (null): 204s such as the DELETE of an
 * RFI document carry none.
 */
export function isNonJsonSuccess(res: { headers: Record<string, string>; data: unknown }): boolean {
  const { data } = res;
  if (data === undefined || data === null) return false;
  if (typeof data === 'string') return data.trim() !== '';
  const contentType = res.headers['content-type'] ?? '';
  if (HTML_CONTENT_TYPE.test(contentType)) return true;
  return TEXT_CONTENT_TYPE.test(contentType) && typeof data !== 'object';
}

/**
 * How the retry policy judges a non-JSON 2xx: as the 502 it stands for (a gateway answered, not
 * the partner). Retried for GETs and de-duplicated writes like any gateway failure; never for a
 * keyless write, which may have been applied behind the gateway.
 */
export const NON_JSON_SUCCESS_OUTCOME: AttemptOutcome = { kind: 'response', status: 502, retryAfterMs: null };

const PREVIEW_CHARS = 60;

/**
 * The typed error for a non-JSON 2xx: a PartnerServerError (the partner side failed), keeping the
 * real status. Its message says what came back (status, content type, the body's first characters,
 * whitespace folded) so a log line tells a Cloudflare page from a "Blocked"; never the headers.
 */
export function toNonJsonSuccessError(
  res: Extract<TransportResult, { kind: 'response' }>,
  context: { method: string; path: string; idempotencyKey: string | null },
): PartnerServerError {
  const text = typeof res.data === 'string' ? res.data : JSON.stringify(res.data);
  const folded = text.replace(/\s+/g, ' ').trim();
  const preview = folded.length > PREVIEW_CHARS ? `${folded.slice(0, PREVIEW_CHARS)}…` : folded;
  const contentType = res.headers['content-type'] || 'no content type';
  return new PartnerServerError({
    status: res.status,
    code: 'non_json_response',
    message: `${context.method} ${context.path}: ${res.status} answered ${contentType}, not JSON: "${preview}" (a gateway or proxy answered instead of the partner)`,
    body: res.data,
    requestId: res.requestId,
    idempotencyKey: context.idempotencyKey,
  });
}

/** What one attempt of a call came to, for runAttempts. */
export type AttemptVerdict<T> =
  | { kind: 'done'; value: T }
  /** spec 5.7: the one re-authentication and re-send after a 401; it does not use a retry. */
  | { kind: 'resend' }
  | {
      kind: 'failed';
      /** What the retry policy judges the failure by (POST /auth for a failed token step). */
      method: string;
      hasIdempotencyKey: boolean;
      outcome: AttemptOutcome;
      /** This failure's retry budget, when it differs from the call's. */
      maxRetries?: number;
      /** False when the failure must not be retried whatever the policy says (a refused credential pair). */
      retryable?: boolean;
      /** Told whether the failure is retried, before the backoff (the outcome event). */
      decided?: (willRetry: boolean) => void;
      /** The error the call ends with when the failure is not retried. */
      error: () => Error;
    };

export interface AttemptLoopOptions {
  maxRetries: number;
  backoff: BackoffOptions;
  sleep: (ms: number) => Promise<void>;
}

/**
 * The one retry loop of the client (stripe-node's shape): every attempt runs its steps (the token,
 * then the request) and says what it came to; failures share one budget of `maxRetries`, so a call
 * makes at most 1 + maxRetries failed attempts whichever step failed, plus the one re-send after a
 * 401 (spec 5.7). Backoff per the pure retry policy.
 */
export async function runAttempts<T>(
  options: AttemptLoopOptions,
  attemptOnce: (attempt: number) => Promise<AttemptVerdict<T>>,
): Promise<T> {
  let failures = 0;
  for (let attempt = 1; ; attempt++) {
    const verdict = await attemptOnce(attempt);
    if (verdict.kind === 'done') return verdict.value;
    if (verdict.kind === 'resend') continue;
    failures++;
    const decision = shouldRetry({
      attempt: failures,
      maxRetries: verdict.maxRetries ?? options.maxRetries,
      method: verdict.method,
      hasIdempotencyKey: verdict.hasIdempotencyKey,
      outcome: verdict.outcome,
    });
    const retry = decision.retry && verdict.retryable !== false;
    verdict.decided?.(retry);
    if (!retry) throw verdict.error();
    await options.sleep(computeBackoffMs(failures, options.backoff, decision.retryAfterMs));
  }
}
