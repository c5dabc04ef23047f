import { SpanStatusCode, trace } from '@opentelemetry/api';
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

/**
 * A projection write (the end of a webhook's trace: receipt, inbox, handler, this) as a span
 * `projection <name>`, with its ids on the lines logged during the write (a scope of its own: the
 * caller's may be shared by concurrent work, e.g. a redelivery run). No-op span without an SDK.
 */
export function traceProjectionWrite<T>(
  projection: 'payouts' | 'users' | 'virtual_accounts' | 'deposits',
  logFields: LogFields,
  write: () => Promise<T>,
  outcome?: (result: T) => string,
): Promise<T> {
  return withLogFields(logFields, () =>
    trace.getTracer(APP_TRACER_NAME).startActiveSpan(`projection ${projection}`, async (span) => {
      span.setAttribute(AppSpanAttribute.Projection, projection);
      if (logFields.payout_id) span.setAttribute(AppSpanAttribute.PayoutId, logFields.payout_id);
      try {
        const result = await write();
        if (outcome) span.setAttribute(AppSpanAttribute.Outcome, outcome(result));
        return result;
      } catch (error) {
        const type = error instanceof Error ? error.name : typeof error;
        span.setAttribute(AppSpanAttribute.ErrorType, type);
        span.setStatus({ code: SpanStatusCode.ERROR, message: type });
        throw error;
      } finally {
        span.end();
      }
    }),
  );
}

/**
 * A batch of projection writes in one statement (reconciliation's deferred writes, issue 14) as a
 * span `projection <name>` with the number of rows; outcome `batch`.
 */
export function traceProjectionBatch<T>(
  projection: 'payouts',
  rows: number,
  write: () => Promise<T>,
): Promise<T> {
  return trace.getTracer(APP_TRACER_NAME).startActiveSpan(`projection ${projection}`, async (span) => {
    span.setAttribute(AppSpanAttribute.Projection, projection);
    span.setAttribute(AppSpanAttribute.Rows, rows);
    span.setAttribute(AppSpanAttribute.Outcome, 'batch');
    try {
      return await write();
    } catch (error) {
      const type = error instanceof Error ? error.name : typeof error;
      span.setAttribute(AppSpanAttribute.ErrorType, type);
      span.setStatus({ code: SpanStatusCode.ERROR, message: type });
      throw error;
    } finally {
      span.end();
    }
  });
}
