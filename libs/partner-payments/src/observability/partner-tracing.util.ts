/**
 * Spans through the OpenTelemetry API only: with no SDK registered by the host app every call here
 * is a no-op (the API's non-recording spans), so tracing costs nothing until the app enables it.
 * Attribute names follow the OpenTelemetry HTTP semantic conventions where one exists
 * (http.request.method, url.template, http.response.status_code, http.request.resend_count,
 * error.type) and `partner.*` otherwise. Never a secret, a header value, a body or a full URL.
 */
import {
  context,
  INVALID_SPAN_CONTEXT,
  INVALID_TRACEID,
  ProxyTracerProvider,
  type Context,
  SpanKind,
  SpanStatusCode,
  trace,
  TraceFlags,
  type Span,
  type SpanOptions,
  type Tracer,
  type TracerProvider,
} from '@opentelemetry/api';

export const PARTNER_TRACER_NAME = '@partner-payments/nestjs';

/** Span attribute names set by the module (documented in docs/nestjs/observability.md). */
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

/** The provider the API's global proxy hands out while no SDK is registered. */
const NO_SDK = new ProxyTracerProvider().getDelegate();

/**
 * Whether no SDK is registered: every span would be a non-recording no-op. The client's attempt
 * span is checked against it first, so a call pays neither its name nor a span object for nothing.
 * A provider registered later (or the global replaced) is seen by the next call.
 */
export function tracingOff(): boolean {
  const provider = trace.getTracerProvider();
  return provider instanceof ProxyTracerProvider && provider.getDelegate() === NO_SDK;
}

const INTERNAL: SpanOptions = { kind: SpanKind.INTERNAL };
const CLIENT: SpanOptions = { kind: SpanKind.CLIENT };

/** A span with no trace: every helper here runs the work as it is, without a context of its own. */
const NO_SPAN: Span = trace.wrapSpanContext(INVALID_SPAN_CONTEXT);

/**
 * Whether `ctx` is inside a trace sampled out: its span has a trace, is not sampled and records
 * nothing. The module then starts no span under it (NO_SPAN): the parent's decision holds for
 * the whole trace, as with the ParentBased samplers (OpenTelemetry's default, parentbased_always_on)
 * and the trace-id ratio ones, so a child would record nothing either; starting it anyway cost a
 * sampler call, two ids and a context per span in 9 traces of 10 at a 10% ratio, for nothing. The
 * context as it is carries the decision to anything below.
 */
function inSampledOutTrace(ctx: Context = context.active()): boolean {
  const parent = trace.getSpan(ctx);
  if (parent === undefined || parent.isRecording()) return false;
  const { traceFlags, traceId } = parent.spanContext();
  return (traceFlags & TraceFlags.SAMPLED) === 0 && traceId !== INVALID_TRACEID;
}

/**
 * Starts a span, a child of `parent` (the active context by default). Attributes are set by the
 * caller only when `span.isRecording()`: with no SDK, or a trace sampled out, none is computed,
 * so instrumentation that records nothing costs next to nothing. A sampler therefore decides on the span's name, kind and
 * parent only. Under a sampled-out parent no span is started at all (inSampledOutTrace).
 */
export function startPartnerSpan(
  name: string,
  kind: SpanKind = SpanKind.INTERNAL,
  parent: Context = context.active(),
): Span {
  if (inSampledOutTrace(parent)) return NO_SPAN;
  return partnerTracer().startSpan(name, kind === SpanKind.CLIENT ? CLIENT : INTERNAL, parent);
}

/**
 * The context a span's children are started in when they are handed it explicitly (a leaf span's
 * parent, see inLeafSpan); the caller's context when the span has no trace at all (no SDK).
 */
export function contextWithSpan(span: Span): Context {
  const active = context.active();
  return hasTrace(span) ? trace.setSpan(active, span) : active;
}

/** Recording, or sampled out but in a trace (its children must follow its decision): not a no-op. */
function hasTrace(span: Span): boolean {
  return span.isRecording() || span.spanContext().traceId !== INVALID_TRACEID;
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
  return hasTrace(span)
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

/**
 * Runs `work(span)` without making `span` active, ends it, marks it failed on a throw, like
 * inPartnerSpan. For a span nothing below starts a child of (an attempt on the wire: the module
 * starts no span under it and sends no trace header). Making a span active is an AsyncLocalStorage
 * run and a Context per call, and on Node 20 the first run in a process turns on promise hooks for
 * every promise of the process from then on: the module must not be what turns them on (bench/
 * README.md, instrumentation). A child the module does start below a span is handed its parent
 * (startPartnerSpan's `parent`, contextWithSpan).
 */
export function inLeafSpan<T>(
  span: Span,
  work: () => Promise<T>,
  onResult?: (span: Span, result: T) => void,
): Promise<T> {
  return span.isRecording() ? endLeafSpan(span, work, onResult) : work();
}

/** Awaits `work`, describes the span from its result or marks it failed, ends it. */
async function endLeafSpan<T>(
  span: Span,
  work: () => Promise<T>,
  onResult?: (span: Span, result: T) => void,
): Promise<T> {
  try {
    const result = await work();
    onResult?.(span, result);
    return result;
  } catch (error) {
    failSpan(span, error);
    throw error;
  } finally {
    span.end();
  }
}

function inRecordingSpan<T>(
  span: Span,
  work: (span: Span) => Promise<T>,
  onResult?: (span: Span, result: T) => void,
): Promise<T> {
  const active = trace.setSpan(context.active(), span);
  return endLeafSpan(span, () => context.with(active, work, undefined, span), onResult);
}

export { SpanKind };
