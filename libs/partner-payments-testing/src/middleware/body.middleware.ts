import { createHash } from 'node:crypto';
import express, { type Request, type RequestHandler } from 'express';
import { requestState, type SandboxContext } from '../server/sandbox-context.util';
import { setVersionHeader } from './auth.middleware';

const isJson = (req: Request): boolean =>
  /^application\/([\w.+-]+\+)?json\s*(;|$)/i.test(req.get('content-type') ?? '');

export const isMultipart = (req: Request): boolean => /^multipart\//i.test(req.get('content-type') ?? '');

/**
 * Reads every non-multipart body raw (so the request log can hash the exact bytes), then parses
 * it when it is sent as JSON. Multipart bodies stay unread: the upload handler streams them (busboy).
 */
export function bodyMiddleware(ctx: SandboxContext): RequestHandler[] {
  const raw = express.raw({ type: (req) => !isMultipart(req as Request), limit: '2mb' });
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
      setVersionHeader(ctx, req, res);
      res.status(400).json({ code: 'validation_error', message: 'Request body is not valid JSON' });
      return;
    }
    next();
  };
  return [raw, parse];
}
