/**
 * Spans, hooks and the log context of the webhook path, so one event can be followed from the
 * partner's delivery to the host app's database write in one trace:
 *
 *   partner.webhook receive        (parse, record; outcome accepted / duplicate / unknown / refused)
 *     partner.inbox record
 *     partner.webhook process      (after the 2xx; a child although its parent has ended)
 *       partner.webhook handler    (one per listener: the host app's spans nest under it)
 *
 * A redelivery from the inbox (processPending) starts its own trace at `partner.webhook process`
 * (partner.webhook.redelivery true); every span carries partner.event_id, so both are found by it.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { SpanStatusCode, trace, type Span } from '@opentelemetry/api';
import {
  PartnerWebhookBodyTooLargeError,
  PartnerWebhookConfigurationError,
  PartnerWebhookInboxError,
  PartnerWebhookPayloadError,
  PartnerWebhookSignatureError,
} from '../webhooks/webhook.errors';
import {
  notifyListener,
  type PartnerWebhookObservation,
  type PartnerWebhookRefusalReason,
} from './hooks.util';
import {
  failSpan,
  inPartnerSpan,
  PartnerSpanAttribute as A,
  startPartnerSpan,
  withActiveSpan,
} from './partner-tracing.util';

type Listener = ((event: PartnerWebhookObservation) => void) | null;

/** The event a log line belongs to, while the module receives or processes it. */
export interface PartnerLogContext {
  eventId: string;
  eventName: string;
}

const logContext = new AsyncLocalStorage<PartnerLogContext>();

/**
 * The webhook event being received or processed where this is called (the host app's handlers
 * included), for a logger to put `event_id` on every line of that work; undefined elsewhere.
 */
export function currentPartnerLogContext(): PartnerLogContext | undefined {
  return logContext.getStore();
}

/** Which refusal an error of the webhook pipeline stands for; null for anything else. */
export function webhookRefusalReason(error: unknown): PartnerWebhookRefusalReason | null {
  if (error instanceof PartnerWebhookSignatureError) return error.reason;
  if (error instanceof PartnerWebhookPayloadError) return 'invalid_payload';
  if (error instanceof PartnerWebhookBodyTooLargeError) return 'payload_too_large';
  if (error instanceof PartnerWebhookInboxError) return 'inbox_unavailable';
  if (error instanceof PartnerWebhookConfigurationError) return 'no_raw_body';
  return null;
}

function markRefused(span: Span, reason: PartnerWebhookRefusalReason, error: unknown): void {
  span.setAttributes({ [A.WebhookOutcome]: 'refused', [A.WebhookRefusalReason]: reason });
  failSpan(span, error);
}

/** A delivery refused before its body was parsed (size, raw body, signature): a span of its own and the hook. */
export function reportWebhookRefusal(listener: Listener, error: unknown): void {
  const reason = webhookRefusalReason(error);
  if (!reason) return;
  const span = startPartnerSpan('partner.webhook receive');
  if (span.isRecording()) markRefused(span, reason, error);
  span.end();
  notifyListener(listener, { type: 'received', outcome: 'refused', reason });
}

/** The receipt of a verified body (parse, record, answer) in span `partner.webhook receive`. */
export async function observeWebhookReceipt<
  R extends { status: 'accepted' | 'duplicate' | 'unknown'; eventId: string; name: string },
>(listener: Listener, receive: () => Promise<R>): Promise<R> {
  const span = startPartnerSpan('partner.webhook receive');
  try {
    const result = await withActiveSpan(span, receive);
    if (span.isRecording()) span.setAttribute(A.WebhookOutcome, result.status);
    if (listener)
      notifyListener(listener, {
        type: 'received',
        outcome: result.status,
        eventName: result.name,
        eventId: result.eventId,
      });
    return result;
  } catch (error) {
    const reason = webhookRefusalReason(error);
    if (reason) {
      if (span.isRecording()) markRefused(span, reason, error);
      const known = error instanceof PartnerWebhookInboxError ? error : null;
      notifyListener(listener, {
        type: 'received',
        outcome: 'refused',
        reason,
        ...(known ? { eventId: known.eventId, eventName: known.eventName } : {}),
      });
    } else if (span.isRecording()) failSpan(span, error);
    throw error;
  } finally {
    span.end();
  }
}

/** Runs the rest of a receipt once the event is known: its ids on the span and in the log context. */
export function withWebhookEvent<T>(event: { eventId: string; name: string }, work: () => T): T {
  const span = trace.getActiveSpan();
  if (span?.isRecording()) span.setAttributes({ [A.EventId]: event.eventId, [A.EventName]: event.name });
  return logContext.run({ eventId: event.eventId, eventName: event.name }, work);
}

/** One processing run of a stored event (the inbox store's `process` or `drain`) in span `partner.webhook process`. */
export function observeWebhookProcessing<R extends { outcome: 'processed' | 'failed' | 'skipped' }>(
  listener: Listener,
  event: { eventId: string; name: string },
  redelivery: boolean,
  run: () => Promise<R>,
): Promise<R> {
  const started = listener ? performance.now() : 0;
  const span = startPartnerSpan('partner.webhook process');
  if (span.isRecording())
    span.setAttributes({
      [A.EventId]: event.eventId,
      [A.EventName]: event.name,
      [A.WebhookRedelivery]: redelivery,
    });
  return logContext.run({ eventId: event.eventId, eventName: event.name }, async () => {
    const result = await inPartnerSpan(span, run, describeProcessing);
    if (listener)
      notifyListener(listener, {
        type: 'processed',
        outcome: result.outcome,
        eventName: event.name,
        eventId: event.eventId,
        durationMs: Math.round(performance.now() - started),
        redelivery,
      });
    return result;
  });
}

/** The run's outcome on its span; a handler's failure (caught by the service, the entry marked failed) marks it. */
function describeProcessing(span: Span, result: { outcome: string }): void {
  span.setAttribute(A.WebhookOutcome, result.outcome);
  if (result.outcome === 'failed') {
    span.setAttribute(A.ErrorType, 'handler_failed');
    span.setStatus({ code: SpanStatusCode.ERROR, message: 'handler_failed' });
  }
}

/** One inbox store call in span `partner.inbox <operation>`. */
export function traceInboxCall<T>(operation: 'record', eventId: string, call: () => Promise<T>): Promise<T> {
  const span = startPartnerSpan(INBOX_SPAN[operation]);
  if (span.isRecording()) span.setAttribute(A.EventId, eventId);
  return inPartnerSpan(span, call);
}

const INBOX_SPAN = { record: 'partner.inbox record' } as const;

/** One listener of an emitted event in span `partner.webhook handler` (`<event name>#<index>`). */
export function traceHandler<T>(name: string, index: number, call: () => Promise<T>): Promise<T> {
  const span = startPartnerSpan('partner.webhook handler');
  if (span.isRecording()) span.setAttributes({ [A.EventName]: name, [A.WebhookHandler]: `${name}#${index}` });
  return inPartnerSpan(span, call);
}
