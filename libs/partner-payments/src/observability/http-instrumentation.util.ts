/**
 * Spans and hooks of the HTTP path, kept out of the client and transport so they stay about
 * sending: one CLIENT span per attempt on the wire ("GET /v1/payouts/{payout_id}"), the token
 * refresh ("partner.auth") and rate-limiter waits.
 */
import { SpanStatusCode, type Context, type Span } from '@opentelemetry/api';
import { PartnerApiError, PartnerAuthenticationError } from '../errors/partner-api.errors';
import type { PartnerTokenEvent, PartnerRateLimitWaitEvent } from './hooks.util';
import { notifyListener } from './hooks.util';
import {
  contextWithSpan,
  inLeafSpan,
  PartnerSpanAttribute as A,
  SpanKind,
  startPartnerSpan,
} from './partner-tracing.util';
import { partnerRouteTemplate } from './route-template.util';

/** What the attempt span reads from a transport result (a structural subset of TransportResult). */
interface AttemptResultLike {
  kind: 'response' | 'network';
  status?: number;
  requestId?: string | null;
  code?: string;
}

/**
 * One attempt on the wire (POST /auth included), the span the semantic conventions ask for: one
 * CLIENT span per HTTP request, retries told apart by http.request.resend_count (no logical parent
 * span: it would double the cost for a grouping the caller's own span already gives). A 4xx/5xx or
 * a network failure marks it failed, typed by the status or the error code. A leaf, not made active
 * (inLeafSpan says why); its parent is the caller's active span, or `req.traceParent` (the /auth
 * attempt under partner.auth). The transport skips it whole while no SDK is registered (tracingOff).
 */
export function traceAttempt<R extends AttemptResultLike>(
  req: { method: string; path: string; attempt: number; traceParent?: Context },
  headers: Record<string, string>,
  rateLimitWaitMs: number,
  send: () => Promise<R>,
): Promise<R> {
  const route = partnerRouteTemplate(req.path);
  const span = startPartnerSpan(`${req.method} ${route}`, SpanKind.CLIENT, req.traceParent);
  if (span.isRecording()) {
    span.setAttributes({
      [A.HttpMethod]: req.method,
      [A.UrlTemplate]: route,
      [A.ResendCount]: req.attempt - 1,
      [A.Attempt]: req.attempt,
      [A.IdempotencyKeyPresent]: headers['Idempotency-Key'] !== undefined,
    });
    const version = headers['X-Api-Version'];
    if (version !== undefined) span.setAttribute(A.ApiVersion, version);
    if (rateLimitWaitMs > 0) span.setAttribute(A.RateLimitWaitMs, rateLimitWaitMs);
  }
  return inLeafSpan(span, send, describeAttemptResult);
}

/** The answer's status and request id on the attempt's span; a 4xx/5xx or network failure marks it failed. */
function describeAttemptResult(span: Span, res: AttemptResultLike): void {
  if (res.kind === 'response' && res.status !== undefined) {
    span.setAttribute(A.HttpStatus, res.status);
    if (res.requestId) span.setAttribute(A.RequestId, res.requestId);
    // Semantic conventions: a 4xx/5xx on a client span is an error, typed by its status.
    if (res.status >= 400) {
      span.setAttribute(A.ErrorType, String(res.status));
      span.setStatus({ code: SpanStatusCode.ERROR, message: String(res.status) });
    }
  } else {
    const type = res.code ?? 'network_error';
    span.setAttribute(A.ErrorType, type);
    span.setStatus({ code: SpanStatusCode.ERROR, message: type });
  }
}

/** Reports a wait for the client-side limiter to the hook; the attempt's span carries it too. */
export function reportRateLimitWait(
  listener: ((e: PartnerRateLimitWaitEvent) => void) | null,
  method: string,
  path: string,
  waitMs: number,
): void {
  notifyListener(listener, { waitMs, method, route: partnerRouteTemplate(path) });
}

/**
 * The token refresh (POST /auth with its retries): span "partner.auth" and the token hook. The
 * span is not made active: `refresh` gets the context its attempts' spans are started in.
 */
export async function observeTokenRefresh(
  listener: ((e: PartnerTokenEvent) => void) | null,
  refresh: (traceParent: Context) => Promise<string>,
): Promise<string> {
  const started = performance.now();
  const elapsed = (): number => Math.round(performance.now() - started);
  const span = startPartnerSpan('partner.auth');
  return inLeafSpan(span, async () => {
    try {
      const token = await refresh(contextWithSpan(span));
      span.setAttribute(A.AuthOutcome, 'refreshed');
      notifyListener(listener, { type: 'refreshed', durationMs: elapsed() });
      return token;
    } catch (error) {
      const refused = error instanceof PartnerAuthenticationError;
      const status = error instanceof PartnerApiError ? error.status : null;
      span.setAttribute(A.AuthOutcome, refused ? 'refused' : 'unavailable');
      notifyListener(listener, {
        type: 'failed',
        durationMs: elapsed(),
        reason: refused ? 'refused' : 'unavailable',
        status,
      });
      throw error;
    }
  });
}
