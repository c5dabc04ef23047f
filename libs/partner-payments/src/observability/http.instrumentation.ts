/**
 * Spans and hooks of the HTTP path, kept out of the client and transport so they stay about
 * sending: one INTERNAL span per logical call ("partner GET /v1/payouts/{payout_id}"), one CLIENT
 * span per attempt on the wire ("GET /v1/payouts/{payout_id}", http.request.resend_count as the
 * semantic conventions ask for retries), the token refresh ("partner.auth") and rate-limiter waits.
 */
import { SpanStatusCode, trace, type Span } from '@opentelemetry/api';
import { PartnerApiError, PartnerAuthenticationError } from '../errors/partner-api.error';
import type { PartnerResponse } from '../http/http.types';
import type { PartnerTokenEvent, PartnerRateLimitWaitEvent } from './hooks';
import { notifyListener } from './hooks';
import { inPartnerSpan, PartnerSpanAttribute as A, SpanKind } from './partner.tracing';
import { partnerRouteTemplate } from './route.template';

/** The path part of a request path, as the client sends it ('/v1/payouts?x' -> '/v1/payouts'). */
function pathOnly(path: string): string {
  const q = path.indexOf('?');
  const p = q === -1 ? path : path.slice(0, q);
  return p.startsWith('/') ? p : `/${p}`;
}

/** The logical call: every attempt, re-authentication and backoff of one PartnerHttpClient.request. */
export function traceLogicalCall<T>(
  method: string,
  path: string,
  work: () => Promise<PartnerResponse<T>>,
): Promise<PartnerResponse<T>> {
  const upper = method.toUpperCase();
  const route = partnerRouteTemplate(pathOnly(path));
  return inPartnerSpan(
    `partner ${upper} ${route}`,
    { [A.HttpMethod]: upper, [A.UrlTemplate]: route },
    async (span) => {
      try {
        return await work();
      } catch (error) {
        if (error instanceof PartnerApiError) {
          if (error.status !== null) span.setAttribute(A.HttpStatus, error.status);
          span.setAttribute(A.IdempotencyKeyPresent, error.idempotencyKey !== null);
          if (error.requestId) span.setAttribute(A.RequestId, error.requestId);
        }
        throw error;
      }
    },
    {
      onResult: (span, res) => {
        span.setAttributes({
          [A.HttpStatus]: res.meta.status,
          [A.Attempts]: res.meta.attempts,
          [A.IdempotencyKeyPresent]: res.meta.idempotencyKey !== null,
        });
        if (res.meta.requestId) span.setAttribute(A.RequestId, res.meta.requestId);
        if (res.meta.apiVersion) span.setAttribute(A.ApiVersion, res.meta.apiVersion);
      },
    },
  );
}

/** What the attempt span reads from a transport result (a structural subset of TransportResult). */
interface AttemptResultLike {
  kind: 'response' | 'network';
  status?: number;
  requestId?: string | null;
  code?: string;
}

/** One attempt on the wire (POST /auth included). A network failure is an error span; a status is not judged here. */
export function traceAttempt<R extends AttemptResultLike>(
  method: string,
  path: string,
  attempt: number,
  send: () => Promise<R>,
): Promise<R> {
  const route = partnerRouteTemplate(path);
  return inPartnerSpan(
    `${method} ${route}`,
    { [A.HttpMethod]: method, [A.UrlTemplate]: route, [A.ResendCount]: attempt - 1 },
    send,
    {
      kind: SpanKind.CLIENT,
      onResult: (span: Span, res: R) => {
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
      },
    },
  );
}

/** Reports a wait for the client-side limiter (hook and an event on the current span). */
export function reportRateLimitWait(
  listener: ((e: PartnerRateLimitWaitEvent) => void) | null,
  method: string,
  path: string,
  waitMs: number,
): void {
  const route = partnerRouteTemplate(path);
  trace.getActiveSpan()?.addEvent('partner.rate_limit.wait', { [A.RateLimitWaitMs]: waitMs });
  notifyListener(listener, { waitMs, method, route });
}

/** The token refresh (POST /auth with its retries): span "partner.auth" and the token hook. */
export async function observeTokenRefresh(
  listener: ((e: PartnerTokenEvent) => void) | null,
  refresh: () => Promise<string>,
): Promise<string> {
  const started = performance.now();
  const elapsed = (): number => Math.round(performance.now() - started);
  return inPartnerSpan('partner.auth', {}, async (span) => {
    try {
      const token = await refresh();
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
