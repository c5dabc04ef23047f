import type { RequestHandler } from 'express';
import { isUuidV4 } from '../server/ids.util';
import { sendError, sendValidation } from '../server/http-errors.util';
import { accountOf, requestState, type SandboxContext } from '../server/sandbox.context';

/**
 * spec 4.7 / 8: Idempotency-Key (UUID v4) required on the four write routes. A replay of the same
 * key on the same route answers the original status and body and creates nothing.
 */
export function requireIdempotencyKey(ctx: SandboxContext): RequestHandler {
  return (req, res, next) => {
    const key = req.get('idempotency-key');
    if (!key)
      return sendValidation(res, [{ field: 'Idempotency-Key', message: 'header is required on this call' }]);
    if (!isUuidV4(key))
      return sendValidation(res, [{ field: 'Idempotency-Key', message: 'must be a UUID v4' }]);
    const account = accountOf(res).clientUuid;
    const route = `${req.method} ${req.baseUrl.replace(/^\/sandbox/, '')}${req.path}`;
    const stored = ctx.idempotency.get(account, route, key);
    if (stored) {
      ctx.telemetry.counters.idempotentReplays++;
      // provider-facts: a replay returns the original result, whatever the body. A key reused for a
      // different body is a client bug (one key per logical call) the real partner would hide the
      // same way; count it so tests can assert it never happens.
      if (stored.requestSha256 !== requestState(res).bodySha256) {
        ctx.telemetry.counters.idempotencyKeyReuses++;
        ctx.logger.warn(
          `${route}: Idempotency-Key reused with a different body; the original answer is replayed`,
        );
      }
      res.set('Idempotent-Replayed', 'true');
      res.status(stored.status).json(stored.body);
      return;
    }
    if (!ctx.idempotency.begin(account, route, key)) {
      return sendError(res, 409, 'conflict', 'A request with this Idempotency-Key is still being processed');
    }
    const json = res.json.bind(res);
    res.json = (body: unknown) => {
      ctx.idempotency.finish(account, route, key, {
        status: res.statusCode,
        body,
        requestSha256: requestState(res).bodySha256,
      });
      return json(body);
    };
    res.on('close', () => ctx.idempotency.finish(account, route, key));
    next();
  };
}
