import { Inject, Injectable, type OnApplicationShutdown } from '@nestjs/common';
import {
  observeWebhookProcessing,
  observeWebhookReceipt,
  reportWebhookRefusal,
  traceInboxCall,
  withWebhookEvent,
} from '../observability/webhook.instrumentation';
import { PARTNER_INBOX_STORE } from '../partner-payments.constants';
import { decodePartnerBody, hasSyntheticEventId, parsePartnerEnvelope } from './envelope.parser';
import {
  claimPending,
  readPending,
  type PartnerProcessPendingOptions,
  type PartnerProcessPendingSummary,
} from './inbox.pending-run';
import { InboxProcessor, storedEvent, type PartnerProcessOutcome } from './inbox.processor';
import { InboxGroupCommit, type BatchRecordingStore } from './inbox.group-commit';
import type { InboxEntry, InboxEventInput, InboxRecordResult, PartnerInboxStore } from './inbox.store';
import type { PartnerWebhookEvent } from './partner-event.payloads';
import { PARTNER_SIGNATURE_HEADER, redactSignature, verifyPartnerSignature } from './signature.verifier';
import { PARTNER_WEBHOOK_CONFIG, type PartnerWebhookConfig } from './webhook.config';
import { PartnerWebhookDispatcher } from './webhook.dispatcher';
import {
  PartnerWebhookBodyTooLargeError,
  PartnerWebhookConfigurationError,
  PartnerWebhookInboxError,
  PartnerWebhookPayloadError,
  PartnerWebhookSignatureError,
  RAW_BODY_MISSING_MESSAGE,
} from './webhook.errors';

/** Request headers as Node/Express give them (names in any case). */
export type PartnerWebhookHeaders = Record<string, string | string[] | undefined>;

export type { PartnerProcessOutcome, PartnerProcessPendingOptions, PartnerProcessPendingSummary };

export interface PartnerWebhookHandleResult {
  /** 'accepted': new known event; 'unknown': new event of an unknown type (still 2xx, spec 6.1.5). */
  status: 'accepted' | 'duplicate' | 'unknown';
  eventId: string;
  name: string;
  /** Settles when the handlers ran (null for a duplicate). Never rejects. */
  processing: Promise<PartnerProcessOutcome> | null;
}

export interface PartnerWebhookHandleOptions {
  /** Run the handlers before resolving (e.g. serverless). Default false: persist, ack, then process. */
  waitForProcessing?: boolean;
}

/**
 * The webhook pipeline: verify -> parse -> record in the inbox -> (after the answer) emit.
 * spec 6.1.4: deliveries are not retried, so the event is recorded before the 2xx and processed
 * after it; a handler failure marks the entry failed for processPending(), the delivery is still
 * acknowledged. Handlers therefore run at least once: they must be idempotent.
 */
@Injectable()
export class PartnerWebhookService implements OnApplicationShutdown {
  private readonly inFlight = new Map<string, Promise<PartnerProcessOutcome>>();
  /** eventId -> when its processing last finished here; lets processPending skip stale snapshots. */
  private readonly finishedAt = new Map<string, number>();
  /** Group commit of deliveries (issue 14), when the store can record a batch. */
  private readonly recorder: InboxGroupCommit | null;
  /** Runs the handlers: in batches when the store can process a batch, else one by one. */
  private readonly processor: InboxProcessor;

  constructor(
    @Inject(PARTNER_WEBHOOK_CONFIG) private readonly config: PartnerWebhookConfig,
    @Inject(PARTNER_INBOX_STORE) private readonly inbox: PartnerInboxStore,
    private readonly dispatcher: PartnerWebhookDispatcher,
  ) {
    const { maxRecordRows, maxWaitMs } = config.batching;
    this.recorder = inbox.recordBatch
      ? new InboxGroupCommit(inbox as BatchRecordingStore, { maxRows: maxRecordRows, maxWaitMs })
      : null;
    this.processor = new InboxProcessor(inbox, dispatcher, config.logger, config.batching, config.onEvent);
  }

  /**
   * For apps with their own route: pass the exact bytes received and the request headers.
   * Throws PartnerWebhookError subclasses (500 no raw body, 413, 401, 400, 500 inbox unavailable);
   * `e.toHttpException()`. Resolves only once the event is recorded: answer 2xx after it, never before.
   */
  async handle(
    rawBody: Buffer | string | undefined | null,
    headers: PartnerWebhookHeaders,
    options: PartnerWebhookHandleOptions = {},
  ): Promise<PartnerWebhookHandleResult> {
    if (!Buffer.isBuffer(rawBody) && typeof rawBody !== 'string') {
      // Never verify re-serialised JSON (spec 6.1.3): a parsed object is refused like a missing body.
      this.config.logger.error(RAW_BODY_MISSING_MESSAGE);
      throw this.refused(new PartnerWebhookConfigurationError(RAW_BODY_MISSING_MESSAGE));
    }
    const size = Buffer.isBuffer(rawBody) ? rawBody.length : Buffer.byteLength(rawBody, 'utf8');
    if (size > this.config.maxBodyBytes)
      throw this.refused(new PartnerWebhookBodyTooLargeError(this.config.maxBodyBytes, size));
    this.verify(rawBody, headers);
    return this.accept(rawBody, options);
  }

  /** Verifies the signature header against the raw bytes; throws PartnerWebhookSignatureError (401). */
  verify(rawBody: Buffer | string, headers: PartnerWebhookHeaders): void {
    const header = headerValue(headers, PARTNER_SIGNATURE_HEADER);
    const result = verifyPartnerSignature(rawBody, header, this.config.secrets);
    if (result.ok) return;
    this.config.logger.warn(
      `Partner webhook refused (401, ${result.reason}): ${result.message}; header ${redactSignature(header)}`,
    );
    throw this.refused(new PartnerWebhookSignatureError(result.reason, result.message));
  }

  /** Reports a delivery refused before parsing (hook and span, issue 13); returns the error to throw. */
  refused<E extends Error>(error: E): E {
    reportWebhookRefusal(this.config.onEvent, error);
    return error;
  }

  /**
   * The part after verification (the guard already verified): decode (UTF-8 only), parse, record,
   * then process. Throws PartnerWebhookPayloadError (400) or PartnerWebhookInboxError (500, the store threw).
   */
  accept(
    rawBody: Buffer | string,
    options: PartnerWebhookHandleOptions = {},
  ): Promise<PartnerWebhookHandleResult> {
    // Issue 13: span `partner.webhook receive` and the onWebhookEvent hook with the answer.
    return observeWebhookReceipt(this.config.onEvent, () => this.receive(rawBody, options));
  }

  private async receive(
    rawBody: Buffer | string,
    options: PartnerWebhookHandleOptions,
  ): Promise<PartnerWebhookHandleResult> {
    let event: PartnerWebhookEvent<string, unknown>;
    let text: string;
    try {
      // Refuses bytes that are not UTF-8 (defect 10) before anything is recorded or acknowledged.
      text = decodePartnerBody(rawBody);
      event = parsePartnerEnvelope(text);
    } catch (error) {
      if (error instanceof PartnerWebhookPayloadError) {
        this.config.logger.warn(`Partner webhook refused (400): ${error.message}; not emitted`);
      }
      throw error;
    }
    if (hasSyntheticEventId(event)) {
      this.config.logger.warn(
        `Partner webhook ${event.name} has no data.event_id; de-duplicating on a body hash`,
      );
    }
    // From here every log line and span of this event carries its id, processing included.
    return withWebhookEvent(event, () => this.recordAndProcess(event, text, options));
  }

  private async recordAndProcess(
    event: PartnerWebhookEvent<string, unknown>,
    text: string,
    options: PartnerWebhookHandleOptions,
  ): Promise<PartnerWebhookHandleResult> {
    let recorded: InboxRecordResult;
    try {
      const input: InboxEventInput = {
        eventId: event.eventId,
        name: event.name,
        envelope: event.envelope,
        rawBody: text,
        receivedAt: new Date(),
      };
      // Resolves once the transaction holding the row committed (group commit or alone).
      recorded = await traceInboxCall('record', event.eventId, () =>
        this.recorder ? this.recorder.record(input) : this.inbox.record(input),
      );
    } catch (error) {
      // spec 6.1.4: never acknowledge what was not kept. The partner will not retry a 5xx either,
      // but it shows in its delivery log (a 2xx would hide the loss), and this error log names it.
      const failure = new PartnerWebhookInboxError(event.eventId, event.name, { cause: error });
      this.config.logger.error(
        `${failure.message} (answered 500; the partner does not retry, replay it from the partner ` +
          `or reconcile): ${error instanceof Error ? error.message : String(error)}`,
      );
      throw failure;
    }
    if (recorded === 'duplicate') {
      // spec 6.1.4: de-duplicate on data.event_id; acknowledged, not emitted again.
      return { status: 'duplicate', eventId: event.eventId, name: event.name, processing: null };
    }
    const processing = this.process(event, !options.waitForProcessing);
    if (options.waitForProcessing) await processing;
    return {
      status: event.known ? 'accepted' : 'unknown',
      eventId: event.eventId,
      name: event.name,
      processing,
    };
  }

  /** Re-runs the handlers of a stored entry (signature was checked on receipt). For the retry cron. */
  async redeliver(entry: Pick<InboxEntry, 'eventId' | 'rawBody'>): Promise<PartnerProcessOutcome> {
    let event: PartnerWebhookEvent<string, unknown>;
    try {
      event = storedEvent(entry);
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      await this.inbox.markFailed(entry.eventId, message);
      return { outcome: 'failed', eventId: entry.eventId, error: message };
    }
    // The stored key wins: it is what the inbox knows the entry by.
    return this.process({ ...event, eventId: entry.eventId }, false, true);
  }

  /**
   * Processes entries the inbox reports due (failed and due, or never processed and older than
   * `minAgeMs`, default 10 s: younger ones are most likely in the hands of the delivery that
   * recorded them, perhaps on another replica). Oldest first, `limit` (default 100) per read.
   *
   * With `untilEmpty` it reads batch after batch until nothing due is left (issue 9 defect 6: a
   * crash's backlog drained at one batch per cron tick). "Due" is judged against the run's start,
   * and an entry is tried at most once per run: one that fails gets its backoff (its next attempt
   * lies after the start), so the run never spins on it. The run ends at the first read with no
   * entry it has not tried, so it ends even if the store keeps reporting an entry (say markFailed
   * itself failed). A store that claims entries (a lease, SKIP LOCKED) can do so in `pending`.
   */
  async processPending(options: PartnerProcessPendingOptions = {}): Promise<PartnerProcessPendingSummary> {
    if (this.inbox.claimDue) return claimPending(this.processor, options);
    return readPending(
      {
        inbox: this.inbox,
        redeliver: (entry) => this.redeliver(entry),
        busy: (eventId, snapshotAt) => {
          const finished = this.finishedAt.get(eventId);
          return this.inFlight.has(eventId) || (finished !== undefined && finished >= snapshotAt);
        },
      },
      options,
    );
  }

  /** Resolves when every processing started so far has settled. For tests and shutdown. */
  async drain(): Promise<void> {
    while (this.inFlight.size > 0) await Promise.allSettled([...this.inFlight.values()]);
  }

  async onApplicationShutdown(): Promise<void> {
    await this.drain();
  }

  private process(
    event: PartnerWebhookEvent<string, unknown>,
    deferred: boolean,
    redelivery = false,
  ): Promise<PartnerProcessOutcome> {
    const existing = this.inFlight.get(event.eventId);
    if (existing) return existing;
    // Issue 13: span `partner.webhook process` (a child of the receipt's), the hook, the log context.
    // In batch mode the processor runs the handlers in this call's context (see InboxProcessor).
    const promise = observeWebhookProcessing(this.config.onEvent, event, redelivery, () =>
      this.processor.process(event, deferred),
    ).finally(() => {
      this.inFlight.delete(event.eventId);
      this.finishedAt.set(event.eventId, Date.now());
      if (this.finishedAt.size > 10_000)
        this.finishedAt.delete(this.finishedAt.keys().next().value as string);
    });
    this.inFlight.set(event.eventId, promise);
    return promise;
  }
}

/** Case-insensitive header lookup (Express lower-cases, hand-built header objects may not). */
export function headerValue(headers: PartnerWebhookHeaders, name: string): string | string[] | undefined {
  if (headers[name] !== undefined) return headers[name];
  const lower = name.toLowerCase();
  for (const key of Object.keys(headers)) if (key.toLowerCase() === lower) return headers[key];
  return undefined;
}
