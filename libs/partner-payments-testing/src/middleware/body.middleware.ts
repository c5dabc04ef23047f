import { createHash } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { brotliDecompressSync, gunzipSync, inflateSync } from 'node:zlib';
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { requestState, type SandboxContext } from '../server/sandbox-context.util';
import { setAppHeaders } from './app-headers.middleware';

const isJson = (req: Request): boolean =>
  /^application\/([\w.+-]+\+)?json\s*(;|$)/i.test(req.get('content-type') ?? '');

export const isMultipart = (req: Request): boolean => /^multipart\//i.test(req.get('content-type') ?? '');

/**
 * The largest non-multipart body read, in bytes: body-parser's 2 MiB the sandbox always used. The
 * partner takes user bodies up to ~10 MB [T1s §3.8]; the sandbox's own bodies are far smaller.
 */
export const MAX_BODY_BYTES = 2 * 1024 * 1024;

/** How long a refused sender has to read the answer before its connection is destroyed. */
const REFUSED_CLOSE_DEADLINE_MS = 5_000;

/**
 * Ends a request whose body will not be read to its end (draining it would let one sender keep
 * the sandbox reading an endless body): the request stays paused, so TCP flow control holds the
 * sender back, and the answer carries `Connection: close`. Once it is written the socket is only
 * half-closed, since destroying it with unread bytes pending sends a reset that can discard the
 * answer before the sender reads it; it is destroyed when the sender closes, or at the deadline.
 */
export function closeAfterAnswer(req: IncomingMessage, res: ServerResponse): void {
  if (req.complete) return;
  req.pause();
  if (!res.headersSent) res.setHeader('Connection', 'close');
  const socket = req.socket;
  // Node ends a Connection: close socket with destroySoon (end, then destroy): keep the end only.
  socket.destroySoon = () => void socket.end();
  const deadline = setTimeout(() => socket.destroy(), REFUSED_CLOSE_DEADLINE_MS);
  deadline.unref();
  socket.once('end', () => socket.destroy()).once('close', () => clearTimeout(deadline));
  if (res.writableFinished) socket.end();
}

/**
 * Reads and drops the body of a request answered without it, keeping the connection for the next
 * request; past `limit` bytes it stops and destroys the socket, so an endless body cannot keep the
 * sandbox reading.
 */
export function discardBody(req: IncomingMessage, limit: number): void {
  let read = 0;
  req.on('data', (chunk: Buffer) => {
    read += chunk.length;
    if (read > limit) req.socket.destroy();
  });
  req.resume();
}

/** body-parser's test for a body: a transfer encoding, or a Content-Length. */
const hasBody = (req: Request): boolean =>
  req.headers['transfer-encoding'] !== undefined ||
  !Number.isNaN(Number.parseInt(req.headers['content-length'] ?? '', 10));

function tooLarge(req: Request, res: Response): void {
  closeAfterAnswer(req, res);
  res.status(413).json({ code: 'validation_error', message: 'request entity too large' });
}

/** Inflates a gzip, deflate or br body within the limit (as body-parser did); undefined when it cannot. */
function decoded(req: Request, body: Buffer): Buffer | undefined {
  const encoding = (req.headers['content-encoding'] ?? 'identity').toLowerCase();
  const options = { maxOutputLength: MAX_BODY_BYTES };
  try {
    if (encoding === 'identity') return body;
    if (encoding === 'gzip') return gunzipSync(body, options);
    if (encoding === 'deflate') return inflateSync(body, options);
    if (encoding === 'br') return brotliDecompressSync(body, options);
  } catch {
    return undefined;
  }
  return undefined;
}

/**
 * Reads a non-multipart body whole, at most MAX_BODY_BYTES: beyond that (declared or counted) it
 * answers 413 at once and closes the connection without reading the rest.
 */
function readRaw(req: Request, res: Response, next: NextFunction): void {
  if (isMultipart(req) || !hasBody(req)) return next();
  if (Number(req.headers['content-length']) > MAX_BODY_BYTES) return tooLarge(req, res);
  const chunks: Buffer[] = [];
  let total = 0;
  const deliver = () => {
    const body = decoded(req, Buffer.concat(chunks, total));
    if (body === undefined)
      return void res
        .status(400)
        .json({ code: 'validation_error', message: 'The body could not be decoded' });
    req.body = body;
    next();
  };
  if (req.destroyed) {
    // The caller hung up (e.g. its timeout) after sending the whole body: the request is still
    // made, as at the partner, from the bytes already received; a body cut short is not.
    if (!req.complete) return next(Object.assign(new Error('request aborted'), { status: 400 }));
    for (let c = req.read() as Buffer | null; c !== null; c = req.read() as Buffer | null) {
      chunks.push(c);
      total += c.length;
    }
    return deliver();
  }
  const cleanup = () => {
    req.off('data', onData).off('end', onEnd).off('error', onError);
  };
  const onData = (chunk: Buffer) => {
    total += chunk.length;
    if (total <= MAX_BODY_BYTES) return void chunks.push(chunk);
    cleanup();
    tooLarge(req, res);
  };
  const onEnd = () => {
    cleanup();
    deliver();
  };
  const onError = (error: Error) => {
    cleanup();
    next(error);
  };
  req.on('data', onData).on('end', onEnd).on('error', onError);
}

/**
 * Reads every non-multipart body raw (so the request log can hash the exact bytes), then parses
 * it when it is sent as JSON. Multipart bodies stay unread: the upload handler streams them (busboy).
 */
export function bodyMiddleware(ctx: SandboxContext): RequestHandler[] {
  const parse: RequestHandler = (req, res, next) => {
    const state = requestState(res);
    const body: unknown = req.body;
    if (!Buffer.isBuffer(body)) return next();
    state.rawBody = body;
    state.bodySha256 = createHash('sha256').update(body).digest('hex');
    if (body.length === 0) return next();
    // A JSON API's body parser reads only JSON media types; anything else (fetch sends a string body
    // as text/plain when no content-type is set) reaches the route as no body. Parsing it anyway
    // would hide a client that forgets `Content-Type: application/json`.
    if (!isJson(req)) return next();
    try {
      state.body = JSON.parse(body.toString('utf8'));
    } catch {
      setAppHeaders(ctx, req, res);
      res.status(400).json({ code: 'validation_error', message: 'Request body is not valid JSON' });
      return;
    }
    next();
  };
  return [readRaw, parse];
}
