import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { eventIdOf, type JsonObject } from './event-builders.util';
import { SIGNATURE_HEADER, verifyPartnerWebhook } from './webhook-signing.util';

export interface ReceivedPartnerWebhook {
  /** The raw body as received (what the signature covers). */
  raw: string;
  headers: IncomingHttpHeaders;
  /** The parsed body, or undefined when it was not JSON. */
  body: JsonObject | undefined;
  event: string | undefined;
  eventId: string | undefined;
  /** x-signature-sha256 verified against any of `secrets` (spec 6.1.3). */
  validSignature: boolean;
  /** When its request line and headers arrived: epoch ms with a fraction (`performance` clock). */
  receivedAt: number;
}

export interface WebhookReceiverOptions {
  /**
   * Secrets accepted (a list during a rotation: the partner signs with the old secret for about a
   * minute after one, evidence §9). Empty strings are ignored, never used as a key: with none left,
   * every delivery is recorded with `validSignature: false` (as the module answers 401).
   */
  secrets: string | string[];
  host?: string;
  port?: number;
  /** Status answered to every delivery; default 200 (changeable later via `answerStatus`). */
  answerStatus?: number;
}

export interface WebhookReceiver {
  url: string;
  received: ReceivedPartnerWebhook[];
  answerStatus: number;
  secrets: string[];
  /** Resolves with the received webhooks (of `event`) once there are at least `count`. */
  waitFor(count: number, options?: { event?: string; timeoutMs?: number }): Promise<ReceivedPartnerWebhook[]>;
  close(): Promise<void>;
}

/**
 * A tiny webhook receiver for tests: records every delivery with its raw bytes and whether its
 * signature verifies. Point the sandbox at it: `startPartnerSandbox({ webhookUrl: receiver.url })`.
 */
export async function startWebhookReceiver(options: WebhookReceiverOptions): Promise<WebhookReceiver> {
  const received: ReceivedPartnerWebhook[] = [];
  const state = {
    answerStatus: options.answerStatus ?? 200,
    secrets: typeof options.secrets === 'string' ? [options.secrets] : [...options.secrets],
  };
  const server = createServer((req, res) => {
    const receivedAt = performance.timeOrigin + performance.now();
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const bytes = Buffer.concat(chunks);
      const raw = bytes.toString('utf8');
      let body: JsonObject | undefined;
      try {
        body = JSON.parse(raw) as JsonObject;
      } catch {
        body = undefined;
      }
      const signature = req.headers[SIGNATURE_HEADER];
      received.push({
        raw,
        headers: req.headers,
        body,
        event: typeof body?.event === 'string' ? body.event : undefined,
        eventId: body ? eventIdOf(body) : undefined,
        // Verified over the bytes as received (spec 6.1.3), not over a decoded string: bytes that
        // are not valid UTF-8 would not survive the round trip.
        validSignature: verifyPartnerWebhook(
          bytes,
          typeof signature === 'string' ? signature : undefined,
          receiver.secrets,
        ),
        receivedAt,
      });
      res.statusCode = receiver.answerStatus;
      res.end();
    });
  });
  server.listen(options.port ?? 0, options.host ?? '127.0.0.1');
  await new Promise<void>((resolve, reject) => {
    server.once('listening', resolve);
    server.once('error', reject);
  });
  const { port } = server.address() as AddressInfo;
  const receiver: WebhookReceiver = {
    url: `http://${options.host ?? '127.0.0.1'}:${port}/webhooks/partner`,
    received,
    answerStatus: state.answerStatus,
    secrets: state.secrets,
    async waitFor(count, opts = {}) {
      const deadline = Date.now() + (opts.timeoutMs ?? 5000);
      const matching = () => received.filter((r) => !opts.event || r.event === opts.event);
      while (matching().length < count) {
        if (Date.now() > deadline)
          throw new Error(
            `receiver got ${matching().length} of ${count} webhooks${opts.event ? ` of ${opts.event}` : ''}`,
          );
        await new Promise((r) => setTimeout(r, 10));
      }
      return matching();
    },
    close() {
      server.closeAllConnections();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
  return receiver;
}
