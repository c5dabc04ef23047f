import { Inject, Injectable, type OnApplicationShutdown } from '@nestjs/common';
import { PARTNER_INBOX_STORE } from '../partner-payments.constants';
import { decodePartnerBody, hasSyntheticEventId, parsePartnerEnvelope } from './envelope.parser';
import type { InboxEntry, InboxRecordResult, PartnerInboxStore } from './inbox.store';
import type { PartnerWebhookEvent } from './partner-event.payloads';
import { PARTNER_SIGNATURE_HEADER, redactSignature, verifyPartnerSignature } from './signature.verifier';
import { PARTNER_WEBHOOK_CONFIG, type PartnerWebhookConfig } from './webhook.config';
import { PartnerWebhookDispatcher, type PartnerDispatchResult } from './webhook.dispatcher';
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

export type PartnerProcessOutcome =
  | { outcome: 'processed'; eventId: string; dispatch: PartnerDispatchResult }
  /** The inbox found the entry processed already (another replica): handlers not run again. */
  | { outcome: 'skipped'; eventId: string }
  | { outcome: 'failed'; eventId: string; error: string };

export interface PartnerWebhookHandleResult {
  /** 'accepted': new known event; 'unknown': new event of an unknown type (still 2xx, spec 6.1.5). */
  status: 'accepted' | 'duplicate' | 'unknown';
  eventId: string;
  name: string;
  /** Settles when the handlers ran (null for a duplicate). Never rejects. */
  processing: Promise<PartnerProcessOutcome> | null;
}

export interface PartnerProcessPendingOptions {
  /** Entries read from the inbox per batch. Default 100. */
  limit?: number;
  /** Never-processed entries younger than this are left to the delivery that recorded them. Default 10 s. */
  minAgeMs?: number;
  /** Entries processed at once. Default 1 (one after another). */
  concurrency?: number;
  /** Read batch after batch until nothing due is left that this run has not tried. Default false: one batch. */
  untilEmpty?: boolean;
  /** Checked before each batch: an aborted run stops there (e.g. at shutdown). */
  signal?: AbortSignal;
}

export interface PartnerProcessPendingSummary {
  processed: number;
  failed: number;
  /** Entries handled elsewhere meanwhile (in flight here, or found processed by the store). */
  skipped: number;
  /** Batches that held entries to process. */
  batches: number;
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

  constructor(
    @Inject(PARTNER_WEBHOOK_CONFIG) private readonly config: PartnerWebhookConfig,
    @Inject(PARTNER_INBOX_STORE) private readonly inbox: PartnerInboxStore,
    private readonly dispatcher: PartnerWebhookDispatcher,
  ) {}

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
      throw new PartnerWebhookConfigurationError(RAW_BODY_MISSING_MESSAGE);
    }
    const size = Buffer.isBuffer(rawBody) ? rawBody.length : Buffer.byteLength(rawBody, 'utf8');
    if (size > this.config.maxBodyBytes)
      throw new PartnerWebhookBodyTooLargeError(this.config.maxBodyBytes, size);
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
    throw new PartnerWebhookSignatureError(result.reason, result.message);
  }

  /**
   * The part after verification (the guard already verified): decode (UTF-8 only), parse, record,
   * then process. Throws PartnerWebhookPayloadError (400) or PartnerWebhookInboxError (500, the store threw).
   */
  async accept(
    rawBody: Buffer | string,
    options: PartnerWebhookHandleOptions = {},
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
    let recorded: InboxRecordResult;
    try {
      recorded = await this.inbox.record({
        eventId: event.eventId,
        name: event.name,
        envelope: event.envelope,
        rawBody: text,
        receivedAt: new Date(),
      });
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
      event = parsePartnerEnvelope(entry.rawBody);
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      await this.inbox.markFailed(entry.eventId, `unparseable stored body: ${message}`);
      return { outcome: 'failed', eventId: entry.eventId, error: message };
    }
    // The stored key wins: it is what the inbox knows the entry by.
    return this.process({ ...event, eventId: entry.eventId }, false);
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
    const limit = Math.max(1, options.limit ?? 100);
    const concurrency = Math.max(1, options.concurrency ?? 1);
    const now = new Date();
    const tried = new Set<string>();
    const summary = { processed: 0, failed: 0, skipped: 0, batches: 0 };
    do {
      if (options.signal?.aborted) break;
      const snapshotAt = Date.now();
      const entries = (await this.inbox.pending({ limit, minAgeMs: options.minAgeMs ?? 10_000, now })).filter(
        (entry) => !tried.has(entry.eventId),
      );
      if (entries.length === 0) break;
      summary.batches += 1;
      for (const entry of entries) tried.add(entry.eventId);
      const queue = [...entries];
      const worker = async (): Promise<void> => {
        for (let entry = queue.shift(); entry; entry = queue.shift()) {
          const finished = this.finishedAt.get(entry.eventId);
          if (this.inFlight.has(entry.eventId) || (finished !== undefined && finished >= snapshotAt)) {
            summary.skipped += 1; // being (or just) processed here: the snapshot is stale
            continue;
          }
          summary[(await this.redeliver(entry)).outcome] += 1;
        }
      };
      await Promise.all(Array.from({ length: Math.min(concurrency, entries.length) }, worker));
    } while (options.untilEmpty);
    return summary;
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
  ): Promise<PartnerProcessOutcome> {
    const existing = this.inFlight.get(event.eventId);
    if (existing) return existing;
    const run = async (): Promise<PartnerProcessOutcome> => {
      // Persist, ack, process: let the 2xx go out before the handlers run (provider-facts: answer fast).
      if (deferred) await new Promise<void>((resolve) => setImmediate(resolve));
      let dispatched: PartnerDispatchResult | undefined;
      const work = async (): Promise<PartnerDispatchResult> => {
        dispatched = await this.dispatcher.dispatch(event);
        await this.inbox.markProcessed(event.eventId);
        return dispatched;
      };
      try {
        const result = this.inbox.runProcessing
          ? await this.inbox.runProcessing(event.eventId, work)
          : { ran: true as const, value: await work() };
        if (!result.ran) return { outcome: 'skipped', eventId: event.eventId };
        return { outcome: 'processed', eventId: event.eventId, dispatch: result.value };
      } catch (error) {
        const message = error instanceof Error ? error.message : String(error);
        // The unit of work failed after the unified status was announced (e.g. the commit): its
        // handlers' writes are gone, so let the retry announce it again (spec 6.4.7 de-dup).
        if (dispatched) this.dispatcher.release(dispatched);
        this.config.logger.error(
          `Partner webhook ${event.name} (${event.eventId}) processing failed: ${message}`,
        );
        await this.inbox.markFailed(event.eventId, message).catch((markError: unknown) => {
          this.config.logger.error(
            `Partner webhook inbox markFailed(${event.eventId}) failed: ${String(markError)}`,
          );
        });
        return { outcome: 'failed', eventId: event.eventId, error: message };
      }
    };
    const promise = run().finally(() => {
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
