import {
  context,
  INVALID_TRACEID,
  SpanStatusCode,
  trace,
  TraceFlags,
  type Span,
  type Tracer,
} from '@opentelemetry/api';
import { withLogFields, type LogFields } from './log-context.util';

export const APP_TRACER_NAME = 'partner-payments-reference-app';

/** Span attribute names the app sets (docs/operations.md). */
export const AppSpanAttribute = {
  Projection: 'app.projection',
  Outcome: 'app.projection.outcome',
  PayoutId: 'app.payout_id',
  Rows: 'app.projection.rows',
  ErrorType: 'error.type',
} as const;

type ProjectionName = 'payouts' | 'users' | 'virtual_accounts' | 'deposits';

let tracerOf: { provider: unknown; tracer: Tracer } | null = null;

/** The app's tracer, kept while the API's global provider (a proxy; replaced by trace.disable()) stays. */
function appTracer(): Tracer {
  const provider = trace.getTracerProvider();
  if (tracerOf?.provider !== provider) tracerOf = { provider, tracer: provider.getTracer(APP_TRACER_NAME) };
  return tracerOf.tracer;
}

/**
 * Whether the active span is in a trace sampled out: it has a trace, is not sampled and records
 * nothing. The module's own spans follow the parent's decision the same way (docs/nestjs/
 * observability.md, "What it costs"), as the ParentBased samplers would: a child started here
 * would record nothing either.
 */
function inSampledOutTrace(): boolean {
  const parent = trace.getSpan(context.active());
  if (parent === undefined || parent.isRecording()) return false;
  const { traceFlags, traceId } = parent.spanContext();
  return (traceFlags & TraceFlags.SAMPLED) === 0 && traceId !== INVALID_TRACEID;
}

/**
 * Runs `write` in span `projection <name>`: active (so nothing below starts a trace of its own)
 * unless there is no trace at all (no SDK); attributes only on a recording span (nothing is
 * computed when traces are off or sampled out). Inside a trace sampled out (the
 * module's handler span was not sampled) no span at all: it would record nothing either.
 */
function inProjectionSpan<T>(
  projection: ProjectionName,
  write: () => Promise<T>,
  describe: (span: Span, result: T) => void,
  payoutId?: string,
): Promise<T> {
  if (inSampledOutTrace()) return write();
  const span = appTracer().startSpan(`projection ${projection}`);
  if (span.isRecording()) return inRecordingSpan(span, projection, write, describe, payoutId);
  // Sampled out: active only to carry the decision to anything below; the SDK never sees it.
  return span.spanContext().traceId === INVALID_TRACEID
    ? write()
    : context.with(trace.setSpan(context.active(), span), write);
}

async function inRecordingSpan<T>(
  span: Span,
  projection: ProjectionName,
  write: () => Promise<T>,
  describe: (span: Span, result: T) => void,
  payoutId?: string,
): Promise<T> {
  span.setAttribute(AppSpanAttribute.Projection, projection);
  if (payoutId) span.setAttribute(AppSpanAttribute.PayoutId, payoutId);
  try {
    const result = await context.with(trace.setSpan(context.active(), span), write);
    describe(span, result);
    return result;
  } catch (error) {
    const type = error instanceof Error ? error.name : typeof error;
    span.setAttribute(AppSpanAttribute.ErrorType, type);
    span.setStatus({ code: SpanStatusCode.ERROR, message: type });
    throw error;
  } finally {
    span.end();
  }
}

const noDescription = (): void => undefined;

/**
 * A projection write (the end of a webhook's trace: receipt, inbox, handler, this) as a span
 * `projection <name>`, with its ids on the lines logged during the write (a scope of its own: the
 * caller's may be shared by concurrent work, e.g. a redelivery run).
 */
export function traceProjectionWrite<T>(
  projection: ProjectionName,
  logFields: LogFields,
  write: () => Promise<T>,
  outcome?: (result: T) => string,
): Promise<T> {
  const describe = outcome
    ? (span: Span, result: T) => span.setAttribute(AppSpanAttribute.Outcome, outcome(result))
    : noDescription;
  return withLogFields(logFields, () => inProjectionSpan(projection, write, describe, logFields.payout_id));
}

/**
 * A batch of projection writes in one statement (reconciliation's deferred writes) as a
 * span `projection <name>` with the number of rows; outcome `batch`.
 */
export function traceProjectionBatch<T>(
  projection: 'payouts',
  rows: number,
  write: () => Promise<T>,
): Promise<T> {
  return inProjectionSpan(projection, write, (span) =>
    span.setAttributes({ [AppSpanAttribute.Rows]: rows, [AppSpanAttribute.Outcome]: 'batch' }),
  );
}
