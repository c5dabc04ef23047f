import type { RequestHandler } from 'express';
import { nowIso } from '../server/ids.util';
import { requestState, type SandboxContext } from '../server/sandbox-context.util';
import { redactHeaders, routeTemplate } from '../server/telemetry.store';

/** Records every partner request (method, path, headers minus secrets, body sha256) and counts it by route. */
export function requestLogMiddleware(ctx: SandboxContext): RequestHandler {
  return (req, res, next) => {
    const route = routeTemplate(req.method, req.path);
    ctx.telemetry.request(route);
    const entry = ctx.telemetry.log({
      at: nowIso(),
      method: req.method,
      path: req.originalUrl.split('?')[0],
      route,
      headers: redactHeaders(req.headers),
      bodySha256: null,
      status: null,
      fault: null,
    });
    let done = false;
    const finish = (answered: boolean) => {
      if (done) return;
      done = true;
      const state = requestState(res);
      // The hash of `{ client_id, password }` would let anyone reading the log test password
      // guesses offline: POST /auth bodies are not hashed.
      entry.bodySha256 = route === 'POST /auth' ? null : (state.bodySha256 ?? null);
      entry.fault = state.fault ?? null;
      entry.status = answered ? res.statusCode : null;
    };
    res.on('finish', () => finish(!requestState(res).fault?.includes('reset')));
    res.on('close', () => finish(false));
    next();
  };
}
