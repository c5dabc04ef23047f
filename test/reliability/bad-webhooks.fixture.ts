/**
 * The bad-webhook list's instruments: deliveries over a real socket (node:http, so chunked
 * transfer, a missing content type and exact bytes are possible), and what the app did with each,
 * read back from the database and counted by a handler. Counts feed the reliability tally from
 * observations only.
 */
import { request as httpRequest } from 'node:http';
import { EventEmitter2 } from '@nestjs/event-emitter';
import { PartnerDerivedEvent } from '@partner-payments/nestjs';
import { PartnerWebhookProcessingService } from '@partner-payments/nestjs/webhooks';
import { signPartnerWebhook } from '@partner-payments/testing';
import type { RunningApp } from '../../apps/reference-app/src/app-bootstrap.util';
import {
  inboxEventKey,
  PartnerUnitOfWork,
  PartnerTypeOrmInboxStore,
  PartnerWebhookInboxEntity,
} from '@partner-payments/typeorm';
import { recordTally } from './tally.fixture';

export interface Answer {
  status: number;
  body: { status?: string; eventId?: string; code?: string; message?: string };
}

export interface Delivery {
  body: Buffer | string;
  /** x-signature-sha256; default: the body signed with `secret`. null: no header. */
  signature?: string | null;
  secret?: string;
  /** Default application/json; null: no content-type header. */
  contentType?: string | null;
  /** Send with Transfer-Encoding: chunked (no Content-Length). */
  chunked?: boolean;
}

export function deliver(url: string, delivery: Delivery, defaultSecret: string): Promise<Answer> {
  const body = Buffer.isBuffer(delivery.body) ? delivery.body : Buffer.from(delivery.body, 'utf8');
  const signature =
    delivery.signature === undefined
      ? signPartnerWebhook(body, delivery.secret ?? defaultSecret)
      : delivery.signature;
  const headers: Record<string, string> = {};
  if (signature !== null) headers['x-signature-sha256'] = signature;
  if (delivery.contentType !== null) headers['content-type'] = delivery.contentType ?? 'application/json';
  if (!delivery.chunked) headers['content-length'] = String(body.length);
  return new Promise((resolve, reject) => {
    let settled = false;
    const req = httpRequest(`${url}/webhooks/partner`, { method: 'POST', headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        settled = true;
        const text = Buffer.concat(chunks).toString('utf8');
        let parsed: Answer['body'] = {};
        try {
          parsed = JSON.parse(text) as Answer['body'];
        } catch {
          parsed = { message: text };
        }
        resolve({ status: res.statusCode ?? 0, body: parsed });
      });
    });
    // A 413 may be answered before the body is written: the write then fails after the answer.
    req.on('error', (error) => (settled ? undefined : reject(error)));
    if (delivery.chunked) {
      for (let i = 0; i < body.length; i += 16_384) req.write(body.subarray(i, i + 16_384));
      req.end();
    } else {
      req.end(body);
    }
  });
}

/** Counts handler runs per event id (every emission but the derived payout-status one). */
export function countHandlerRuns(running: RunningApp): Map<string, number> {
  const runs = new Map<string, number>();
  running.app.get(EventEmitter2).onAny((name: string | string[], payload: unknown) => {
    if (name === PartnerDerivedEvent.PayoutStatus) return;
    const eventId = (payload as { eventId?: unknown }).eventId;
    if (typeof eventId === 'string') runs.set(eventId, (runs.get(eventId) ?? 0) + 1);
  });
  return runs;
}

/** The tally of one database's run, filled by `judge` from what was observed. */
export class BadWebhookTally {
  inputsTried = 0;
  refusedRight = 0;
  wrong = 0;
  eventsSent = 0;
  acknowledged = 0;
  stored = 0;
  processedOnce = 0;
  lost = 0;
  duplicate = 0;

  record(database: string): void {
    recordTally({ suite: 'bad webhooks', database, ...this });
  }
}

/** Reads the app's inbox and handler counts to judge answers; updates the tally. */
export class InboxObserver {
  constructor(
    private readonly running: RunningApp,
    private readonly runs: Map<string, number>,
    readonly tally: BadWebhookTally,
  ) {}

  rows(): Promise<number> {
    return this.running.app.get(PartnerUnitOfWork).run((m) => m.count(PartnerWebhookInboxEntity));
  }

  /** One input judged by the caller (e.g. a burst, right when every event in it was). */
  input(right: boolean): void {
    this.tally.inputsTried += 1;
    this.tally[right ? 'refusedRight' : 'wrong'] += 1;
  }

  /** A refused input: the expected status and nothing stored. */
  async refused(answer: Answer, expected: number, rowsBefore: number): Promise<boolean> {
    const ok = answer.status === expected && (await this.rows()) === rowsBefore;
    this.input(ok);
    return ok;
  }

  /** Authentic deliveries of `eventId` (several answers for one event when sent more than once). */
  async accepted(answers: Answer[], eventId: string, countAsInput = true): Promise<AcceptedView> {
    await this.running.app.get(PartnerWebhookProcessingService).drain();
    const acked = answers.filter((a) => a.status >= 200 && a.status < 300).length;
    const entry = await this.running.app.get(PartnerTypeOrmInboxStore).get(eventId);
    const rows = await this.running.app
      .get(PartnerUnitOfWork)
      .run((m) => m.countBy(PartnerWebhookInboxEntity, { eventKey: inboxEventKey(eventId) }));
    const runs = this.runs.get(eventId) ?? 0;
    const once = entry?.state === 'processed' && entry.attempts === 1 && runs === 1;
    const t = this.tally;
    t.eventsSent += 1;
    t.acknowledged += acked > 0 ? 1 : 0;
    t.stored += entry ? 1 : 0;
    t.processedOnce += once ? 1 : 0;
    t.lost += acked > 0 && (!entry || runs === 0) ? 1 : 0;
    t.duplicate += rows > 1 || runs > 1 ? 1 : 0;
    const right = acked === answers.length && !!entry && once && rows === 1;
    if (countAsInput) this.input(right);
    return {
      right,
      acked,
      rows,
      runs,
      state: entry?.state ?? null,
      attempts: entry?.attempts ?? 0,
      rawBody: entry?.rawBody,
    };
  }
}

export interface AcceptedView {
  /** Every answer 2xx, one row, processed once by one handler run. */
  right: boolean;
  acked: number;
  rows: number;
  runs: number;
  state: string | null;
  attempts: number;
  rawBody: string | undefined;
}
