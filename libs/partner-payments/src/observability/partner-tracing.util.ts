/**
 * Spans through the OpenTelemetry API only: with no SDK registered by the host app every call here
 * is a no-op (the API's non-recording spans), so tracing costs nothing until the app enables it.
 * Attribute names follow the OpenTelemetry HTTP semantic conventions where one exists
 * (http.request.method, url.template, http.response.status_code, http.request.resend_count,
 * error.type) and `partner.*` otherwise. Never a secret, a header value, a body or a full URL.
 */
import { SpanKind, SpanStatusCode, trace, type Attributes, type Span, type Tracer } from '@opentelemetry/api';

export const PARTNER_TRACER_NAME = '@partner-payments/nestjs';

/** Span attribute names set by the module (documented in the README's Observability section). */
export const PartnerSpanAttribute = {
  HttpMethod: 'http.request.method',
  UrlTemplate: 'url.template',
  HttpStatus: 'http.response.status_code',
  ResendCount: 'http.request.resend_count',
  ErrorType: 'error.type',
  Attempt: 'partner.attempt',
  IdempotencyKeyPresent: 'partner.idempotency_key.present',
  RequestId: 'partner.request_id',
  ApiVersion: 'partner.api_version',
  RateLimitWaitMs: 'partner.rate_limit.wait_ms',
  AuthOutcome: 'partner.auth.outcome',
  EventId: 'partner.event_id',
  EventName: 'partner.event_name',
  WebhookOutcome: 'partner.webhook.outcome',
  WebhookRefusalReason: 'partner.webhook.refusal_reason',
  WebhookRedelivery: 'partner.webhook.redelivery',
  WebhookHandler: 'partner.webhook.handler',
} as const;

/**
 * Looked up per span, not cached: the global provider may be registered after this module loads
 * (the API's proxy handles that) or replaced (tests), and the SDK caches tracers by name itself.
 */
export function partnerTracer(): Tracer {
  return trace.getTracer(PARTNER_TRACER_NAME);
}

/** An error's type for `error.type`: the class name, or its code when it has one. */
export function errorType(error: unknown): string {
  if (error instanceof Error) {
    const code = (error as { code?: unknown }).code;
    return typeof code === 'string' && code !== '' ? code : error.name;
  }
  return typeof error;
}

/**
 * Marks a span failed with the error's type only, never its message: a partner's validation
 * message may echo what was sent (an account number), and a host handler's message is its own.
 * The logs carry the message; the span the type and, on partner calls, the status.
 */
export function failSpan(span: Span, error: unknown): void {
  const type = errorType(error);
  span.setAttribute(PartnerSpanAttribute.ErrorType, type);
  span.setStatus({ code: SpanStatusCode.ERROR, message: type });
}

/**
 * Runs `work` in an active span (children nest under it), ends it, marks it failed on a throw.
 * `onResult` may set attributes from the result before the span ends.
 */
export function inPartnerSpan<T>(
  name: string,
  attributes: Attributes,
  work: (span: Span) => Promise<T>,
  options: { kind?: SpanKind; onResult?: (span: Span, result: T) => void } = {},
): Promise<T> {
  return partnerTracer().startActiveSpan(
    name,
    { kind: options.kind ?? SpanKind.INTERNAL, attributes },
    async (span) => {
      try {
        const result = await work(span);
        options.onResult?.(span, result);
        return result;
      } catch (error) {
        failSpan(span, error);
        throw error;
      } finally {
        span.end();
      }
    },
  );
}

export { SpanKind };
