/**
 * Spans through the OpenTelemetry API only: with no SDK registered by the host app every call here
 * is a no-op (the API's non-recording spans), so tracing costs nothing until the app enables it.
 * Attribute names follow the OpenTelemetry HTTP semantic conventions where one exists
 * (http.request.method, url.template, http.response.status_code, http.request.resend_count,
 * error.type) and `partner.*` otherwise. Never a secret, a header value, a body or a full URL.
 */
import {
  context,
  INVALID_TRACEID,
  SpanKind,
  SpanStatusCode,
  trace,
  type Span,
  type SpanOptions,
  type Tracer,
  type TracerProvider,
} from '@opentelemetry/api';

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

let tracerOf: { provider: TracerProvider; tracer: Tracer } | null = null;

/**
 * The module's tracer, kept while the global provider object stays the same. The API's global is a
 * proxy whose tracers follow an SDK registered later; trace.disable() (tests, a host re-registering)
 * replaces the proxy, and the next call takes a tracer from the new one. Asking the proxy on every
 * span allocated a proxy tracer per span when no SDK is registered.
 */
export function partnerTracer(): Tracer {
  const provider = trace.getTracerProvider();
  if (tracerOf?.provider !== provider)
    tracerOf = { provider, tracer: provider.getTracer(PARTNER_TRACER_NAME) };
  return tracerOf.tracer;
}

const INTERNAL: SpanOptions = { kind: SpanKind.INTERNAL };
const CLIENT: SpanOptions = { kind: SpanKind.CLIENT };

/**
 * Starts a span (a child of the active one). Attributes are set by the caller only when
 * `span.isRecording()`: with no SDK, or a trace sampled out, none is computed (issue 13: the cost
 * of instrumentation). A sampler therefore decides on the span's name, kind and parent only.
 */
export function startPartnerSpan(name: string, kind: SpanKind = SpanKind.INTERNAL): Span {
  return partnerTracer().startSpan(name, kind === SpanKind.CLIENT ? CLIENT : INTERNAL);
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
 * Runs `work(span)` with `span` active, so children nest under it. A span with no trace (no SDK
 * registered, no incoming context) is not made active: there is nothing to propagate. A sampled-out
 * span still is, so its children follow the parent's decision.
 */
export function withActiveSpan<T>(span: Span, work: (span: Span) => T): T {
  return span.isRecording() || span.spanContext().traceId !== INVALID_TRACEID
    ? context.with(trace.setSpan(context.active(), span), work, undefined, span)
    : work(span);
}

/**
 * Runs `work(span)` with `span` active, ends it, marks it failed on a throw. `onResult` may set
 * attributes from the result. A span that does not record (no SDK, or sampled out) takes no
 * wrapper at all: the SDK never sees it, so there is nothing to end, describe or mark.
 */
export function inPartnerSpan<T>(
  span: Span,
  work: (span: Span) => Promise<T>,
  onResult?: (span: Span, result: T) => void,
): Promise<T> {
  return span.isRecording() ? inRecordingSpan(span, work, onResult) : withActiveSpan(span, work);
}

async function inRecordingSpan<T>(
  span: Span,
  work: (span: Span) => Promise<T>,
  onResult?: (span: Span, result: T) => void,
): Promise<T> {
  try {
    const result = await context.with(trace.setSpan(context.active(), span), work, undefined, span);
    onResult?.(span, result);
    return result;
  } catch (error) {
    failSpan(span, error);
    throw error;
  } finally {
    span.end();
  }
}

export { SpanKind };
