import { Inject, Injectable } from '@nestjs/common';
import { notifyListener } from '../observability/hooks.util';
import {
  observeWebhookReceipt,
  traceInboxCall,
  withWebhookEvent,
} from '../observability/webhook-instrumentation.util';
import { PARTNER_INBOX_STORE, PARTNER_WEBHOOK_CONFIG } from '../partner-payments.constants';
import { decodePartnerBody, hasSyntheticEventId, parsePartnerEnvelope } from './events/envelope.util';
import type { InboxEventInput, InboxRecordResult, PartnerInboxStore } from './inbox/inbox.store';
import type { PartnerWebhookEvent } from './events/partner-event.types';
import { type PartnerWebhookConfig } from './webhook-options.util';
import {
  PartnerWebhookProcessingService,
  type PartnerProcessOutcome,
} from './partner-webhook-processing.service';
import { PartnerWebhookInboxError, PartnerWebhookPayloadError } from './webhook.errors';
import {
  assertWebhookBody,
  verifyWebhookSignature,
  type PartnerWebhookHeaders,
} from './webhook-verification.util';

export type { PartnerWebhookHeaders };

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
 * The receiving half of the webhook pipeline: parse -> record in the inbox -> answer, then hand the
 * event to PartnerWebhookProcessingService. spec 6.1.4: deliveries are not retried, so the event is
 * recorded before the 2xx and processed after it; a handler failure marks the entry failed for
 * processPending(), the delivery is still acknowledged. Handlers run at least once: keep them idempotent.
 */
@Injectable()
export class PartnerWebhookIngestService {
  constructor(
    @Inject(PARTNER_WEBHOOK_CONFIG) private readonly config: PartnerWebhookConfig,
    @Inject(PARTNER_INBOX_STORE) private readonly inbox: PartnerInboxStore,
    private readonly processing: PartnerWebhookProcessingService,
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
    // The checks PartnerWebhookGuard makes on its route, for callers without it (docs/nestjs/webhooks.md).
    assertWebhookBody(this.config, rawBody);
    verifyWebhookSignature(this.config, rawBody, headers);
    return this.accept(rawBody, options);
  }

  /**
   * The part after verification (the guard already verified): decode (UTF-8 only), parse, record,
   * then process. Throws PartnerWebhookPayloadError (400) or PartnerWebhookInboxError (500, the store threw).
   */
  accept(
    rawBody: Buffer | string,
    options: PartnerWebhookHandleOptions = {},
  ): Promise<PartnerWebhookHandleResult> {
    // Span `partner.webhook receive` and the onWebhookEvent hook with the answer.
    return observeWebhookReceipt(this.config.onEvent, () => this.receive(rawBody, options));
  }

  private async receive(
    rawBody: Buffer | string,
    options: PartnerWebhookHandleOptions,
  ): Promise<PartnerWebhookHandleResult> {
    let event: PartnerWebhookEvent<string, unknown>;
    let text: string;
    try {
      // Refuses bytes that are not UTF-8 (RFC 8259 8.1) before anything is recorded or acknowledged.
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
    // Stamped before any wait for room, so the inbox lag (processed_at - received_at) counts it.
    const input: InboxEventInput = {
      eventId: event.eventId,
      name: event.name,
      envelope: event.envelope,
      rawBody: text,
      receivedAt: new Date(),
    };
    // Backpressure: a backlog the handlers cannot keep up with slows intake, bounded.
    const room = this.processing.roomToProcess();
    if (room) {
      const { timedOut } = await room;
      const waitedMs = Date.now() - input.receivedAt.getTime();
      notifyListener(this.config.onEvent, {
        type: 'backpressure',
        waitedMs,
        timedOut,
        eventName: event.name,
        eventId: event.eventId,
      });
    }
    try {
      // Resolves once the row is durably stored (the store may share one commit among deliveries).
      recorded = await traceInboxCall('record', event.eventId, () => this.inbox.record(input));
    } catch (error) {
      // spec 6.1.4: never acknowledge what was not kept. The partner will not retry a 5xx either,
      // but it shows in its delivery log (a 2xx would hide the loss), and this error log names it.
      const failure = new PartnerWebhookInboxError(event.eventId, event.name, { cause: error });
      this.config.logger.error(
        `${failure.message} (answered 500; the partner does not retry, replay it from the partner ` +
          `or read the resource, spec 6.4.8): ${error instanceof Error ? error.message : String(error)}`,
      );
      throw failure;
    }
    if (recorded === 'duplicate') {
      // spec 6.1.4: de-duplicate on data.event_id; acknowledged, not emitted again.
      return { status: 'duplicate', eventId: event.eventId, name: event.name, processing: null };
    }
    const processing = this.processing.start(event, !options.waitForProcessing);
    if (options.waitForProcessing) await processing;
    return {
      status: event.known ? 'accepted' : 'unknown',
      eventId: event.eventId,
      name: event.name,
      processing,
    };
  }
}
