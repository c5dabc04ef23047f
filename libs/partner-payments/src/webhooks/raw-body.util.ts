import type { IncomingMessage, ServerResponse } from 'node:http';
import {
  PartnerWebhookBodyTooLargeError,
  PartnerWebhookConfigurationError,
  RAW_BODY_MISSING_MESSAGE,
} from './webhook.errors';

/** A request as Express/Nest give it, with `rawBody` when the app was created with rawBody: true. */
export type PartnerRawBodyRequest = IncomingMessage & { rawBody?: Buffer; body?: unknown };

/**
 * The exact bytes of the request body (spec 6.1.3: verify the raw bytes as received).
 * 1. `req.rawBody` (NestFactory.create(AppModule, { rawBody: true }) with a JSON or urlencoded body);
 * 2. else, when no body parser consumed the stream (e.g. a content type no parser handles), read it
 *    here, bounded by `maxBodyBytes`;
 * 3. else the body was parsed and the bytes are gone: a configuration error (500) that says how to
 *    fix it. Never falls back to re-serialising `req.body`.
 * A declared Content-Length above the limit is refused (413) before anything is read.
 */
export async function readPartnerRawBody(req: PartnerRawBodyRequest, maxBodyBytes: number): Promise<Buffer> {
  const declared = Number(req.headers['content-length']);
  if (Number.isFinite(declared) && declared > maxBodyBytes) {
    throw new PartnerWebhookBodyTooLargeError(maxBodyBytes, declared);
  }
  if (Buffer.isBuffer(req.rawBody)) {
    if (req.rawBody.length > maxBodyBytes)
      throw new PartnerWebhookBodyTooLargeError(maxBodyBytes, req.rawBody.length);
    return req.rawBody;
  }
  if (!req.readableEnded && req.readable) {
    const raw = await readStream(req, maxBodyBytes);
    req.rawBody = raw;
    return raw;
  }
  if (declared === 0) return Buffer.alloc(0);
  throw new PartnerWebhookConfigurationError(RAW_BODY_MISSING_MESSAGE);
}

function readStream(req: IncomingMessage, maxBodyBytes: number): Promise<Buffer> {
  return new Promise<Buffer>((resolve, reject) => {
    const chunks: Buffer[] = [];
    let total = 0;
    const onData = (chunk: Buffer | string): void => {
      const buf = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
      total += buf.length;
      if (total > maxBodyBytes) {
        cleanup();
        // Nothing more is read: the 413 closes the connection (closeConnectionAfterAnswer), and
        // meanwhile TCP flow control holds the sender back.
        req.pause();
        reject(new PartnerWebhookBodyTooLargeError(maxBodyBytes, null));
        return;
      }
      chunks.push(buf);
    };
    const onEnd = (): void => {
      cleanup();
      resolve(Buffer.concat(chunks, total));
    };
    const onError = (error: Error): void => {
      cleanup();
      reject(error);
    };
    const cleanup = (): void => {
      req.off('data', onData);
      req.off('end', onEnd);
      req.off('error', onError);
    };
    req.on('data', onData);
    req.on('end', onEnd);
    req.on('error', onError);
  });
}

/** How long a refused sender has to read the 413 before its connection is destroyed. */
export const REFUSED_BODY_CLOSE_DEADLINE_MS = 5_000;

/**
 * After a 413 the rest of an unauthenticated body is never read (draining it would let one sender
 * keep the app reading an endless body): the request stays paused, so TCP flow control holds the
 * sender back, and the answer carries `Connection: close`. Once it is written the socket is only
 * half-closed: destroying it with unread bytes pending sends a reset, which can discard the answer
 * before the sender reads it. It is destroyed when the sender closes, or at the deadline.
 * Accepts Node's and Fastify's request/response objects (`.raw`).
 */
export function closeConnectionAfterAnswer(request: unknown, response: unknown): void {
  const req = rawOf<IncomingMessage>(request);
  const res = rawOf<ServerResponse>(response);
  const socket = req?.socket;
  if (!req || !res || !socket || typeof res.setHeader !== 'function') return;
  req.pause();
  if (!res.headersSent) res.setHeader('Connection', 'close');
  // Node ends a Connection: close socket with destroySoon (end, then destroy): keep the end only.
  socket.destroySoon = () => void socket.end();
  const destroy = (): void => {
    clearTimeout(deadline);
    socket.destroy();
  };
  const deadline = setTimeout(destroy, REFUSED_BODY_CLOSE_DEADLINE_MS);
  deadline.unref();
  socket.once('end', destroy).once('close', () => clearTimeout(deadline));
  if (res.writableFinished) socket.end();
}

function rawOf<T extends object>(value: unknown): T | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const raw = (value as { raw?: unknown }).raw;
  return (typeof raw === 'object' && raw !== null ? raw : value) as T;
}
