/**
 * The kit's webhook receiver: the package's receiver (it verifies each signature over the raw
 * bytes with verifyPartnerWebhook, spec 6.1.3) listening where the operator said, plus a bounded
 * wait for one delivery.
 */
import type { IncomingHttpHeaders } from 'node:http';
import {
  startWebhookReceiver,
  type ReceivedPartnerWebhook,
  type WebhookReceiver,
} from '../../webhooks/webhook-receiver.service';
import type { ConformanceWebhookOptions } from './webhook.types';

/**
 * Headers that belong to the transport, not to the partner's delivery: what HTTP/1.1 and the
 * sender's HTTP client add (host, length, connection, user agent, accept: the partner's came with
 * `User-Agent: node` and the usual accept headers, evidence §11 N22), and what a proxy or tunnel in
 * front of the receiver adds (via, forwarded, x-forwarded-*, x-real-ip). Everything else is the
 * partner's and is compared.
 */
export const TRANSPORT_HEADERS: ReadonlySet<string> = new Set([
  'host',
  'connection',
  'keep-alive',
  'content-length',
  'transfer-encoding',
  'te',
  'expect',
  'user-agent',
  'accept',
  'accept-encoding',
  'accept-language',
  'sec-fetch-mode',
  'via',
  'forwarded',
  'x-forwarded-for',
  'x-forwarded-host',
  'x-forwarded-port',
  'x-forwarded-proto',
  'x-real-ip',
]);

/** The header names a delivery carries beyond the transport's, sorted. */
export const partnerHeaderNames = (headers: IncomingHttpHeaders): string[] =>
  Object.keys(headers)
    .map((h) => h.toLowerCase())
    .filter((h) => !TRANSPORT_HEADERS.has(h))
    .sort();

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export class ConformanceWebhookInbox {
  private constructor(
    private readonly receiver: WebhookReceiver,
    readonly timeoutMs: number,
  ) {}

  static async start(options: ConformanceWebhookOptions): Promise<ConformanceWebhookInbox> {
    if (!options.secret) throw new Error('the webhook secret is empty: nothing could be verified');
    const receiver = await startWebhookReceiver({
      secrets: [options.secret],
      host: options.host,
      port: options.port,
    });
    return new ConformanceWebhookInbox(receiver, options.timeoutMs ?? 120_000);
  }

  /** The receiver's URL on its own host (what a hook registers; the partner needs a public one). */
  get url(): string {
    return this.receiver.url;
  }

  /** Every delivery so far, signed or not, in arrival order. */
  get received(): readonly ReceivedPartnerWebhook[] {
    return this.receiver.received;
  }

  /** The first delivery that `matches`, waiting up to `withinMs` (the timeout); undefined when none came. */
  async first(
    matches: (d: ReceivedPartnerWebhook) => boolean,
    withinMs = this.timeoutMs,
  ): Promise<ReceivedPartnerWebhook | undefined> {
    const deadline = Date.now() + withinMs;
    for (;;) {
      const found = this.receiver.received.find(matches);
      if (found || Date.now() > deadline) return found;
      await sleep(50);
    }
  }

  close(): Promise<void> {
    return this.receiver.close();
  }
}
