import type { IncomingMessage } from 'node:http';
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { isWebhookPath } from './json-depth.middleware';
import { isUploadRoute, UPLOAD_BODY_LIMIT_BYTES } from './upload-routes.util';

/**
 * The largest body the app reads on its own routes (its bodies are a few hundred bytes): 100 kB,
 * body-parser's default, which the JSON and form parsers are given too.
 */
export const APP_BODY_LIMIT_BYTES = 100 * 1024;

/** What Nest answers for body-parser's own 413: one answer, whichever of the two refuses first. */
const TOO_LARGE_BODY = { statusCode: 413, message: 'request entity too large' };

/** How long a 413 may take to reach the sender before its connection is closed anyway. */
export const REFUSED_BODY_CLOSE_DEADLINE_MS = 5_000;

/**
 * Stops reading a body at the app's limit. body-parser answers 413 only after reading ("dumping")
 * the whole request, and it runs before any guard: an endless chunked body would keep the app
 * reading at full speed. Here a declared Content-Length over the limit is refused before a byte is read, and a
 * chunked body is counted as it arrives and refused the moment it passes the limit: the answer
 * carries `Connection: close` and the socket is closed once it is flushed. Bodies within the limit
 * go on to the parsers untouched. The webhook route is left to the module's guard (its own limit).
 * Must be registered right before the body parsers: its counter sets the stream flowing, and the
 * parsers must be listening in the same tick.
 */
export function bodySizeLimit(limit = APP_BODY_LIMIT_BYTES): RequestHandler {
  return (req: Request, res: Response, next: NextFunction): void => {
    if (isWebhookPath(req.url)) return next();
    const max = isUploadRoute(req) ? UPLOAD_BODY_LIMIT_BYTES : limit;
    const declared = req.headers['content-length'];
    if (declared !== undefined && Number(declared) > max) return refuseBody(req, res);
    // Node's parser holds a body with a Content-Length to that length; only a chunked one is open-ended.
    if (declared === undefined && req.headers['transfer-encoding'] !== undefined) countBody(req, res, max);
    next();
  };
}

function countBody(req: IncomingMessage, res: Response, limit: number): void {
  let read = 0;
  const onData = (chunk: Buffer): void => {
    read += chunk.length;
    if (read <= limit) return;
    req.off('data', onData);
    refuseBody(req, res);
  };
  req.on('data', onData);
}

/**
 * Nothing more is read: 413 unless an answer has already gone (a route that answered without the
 * body, e.g. 415), then the socket is destroyed once the answer is flushed, or after the deadline
 * when the sender does not take it. The parser that also saw the limit reports its error after
 * the answer, where Nest only ends the response.
 */
function refuseBody(req: IncomingMessage, res: Response): void {
  req.pause();
  const socket = req.socket;
  const close = (): void => {
    clearTimeout(deadline);
    socket.destroy();
  };
  const deadline = setTimeout(close, REFUSED_BODY_CLOSE_DEADLINE_MS);
  deadline.unref();
  if (!res.headersSent) {
    res.setHeader('Connection', 'close');
    res.status(413).json(TOO_LARGE_BODY);
  }
  if (res.writableFinished) close();
  else res.once('finish', close).once('close', close);
}
