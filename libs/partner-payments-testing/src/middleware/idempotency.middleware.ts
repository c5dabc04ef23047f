import { createHash } from 'node:crypto';
import type { RequestHandler } from 'express';
import { isUuidV4 } from '../server/ids.util';
import { sendError, sendFlatError, sendZodValidation, sendTypedError } from '../server/http-errors.util';
import {
  accountOf,
  requestState,
  type RequestState,
  type SandboxContext,
} from '../server/sandbox-context.util';

export interface IdempotencyOptions {
  /**
   * What a key reused with another body does. 'conflict' (default): 409 IDEMPOTENCY_CONFLICT, as
   * the partner answers on its de-duplicating routes (evidence §4 [T3r DRIFT-35]). 'process': the
   * request runs again as a new one, as the partner does on POST /v1/users/{id}/verifications
   * (evidence §3 [T3r DRIFT-16]: a reused key with another body made a second verification).
   */
  onDifferentBody?: 'conflict' | 'process';
  /**
   * A key whose first request failed, reused with another body. 'process' (default): it runs as a
   * new request (nothing of the failure was stored). 'refuse': 400 `{ code: "validation_error",
   * message: "Failed to store idempotency key" }`, as POST /v1/users answered (evidence §11 N20
   * [T4 log §3], one observation; the same body again runs again).
   */
  afterFailure?: 'process' | 'refuse';
}

/**
 * The fingerprint of a request body: its parsed JSON re-serialised (whitespace does not count, key
 * order does, as a server that hashes its parsed body sees it), or the raw bytes when not JSON.
 */
function bodyFingerprint(state: RequestState): string | undefined {
  if (state.body !== undefined) return createHash('sha256').update(JSON.stringify(state.body)).digest('hex');
  return state.bodySha256;
}

/**
 * spec 4.7 / 8: Idempotency-Key (UUID v4) required on the de-duplicating writes; missing → 400 in
 * the Zod shape on the lowercase header name (evidence §11 N30 [T3raw recipients/09]: path
 * `idempotency-key`, "Required"), not a UUID v4 → the same shape.
 * The same key with the same body answers the original status and body (201, evidence §4
 * [T3r DRIFT-34]) and creates nothing; with another body → 409
 * `{ error: { code: "IDEMPOTENCY_CONFLICT", message, details: {} } }` (DRIFT-35) and nothing runs.
 * A create runs from here to its answer without yielding, so parallel requests with one key meet
 * a stored answer: one key and body, ten 201s naming one resource; changed bodies, one 201 and nine
 * 409s (evidence §11 N25 [T3raw idempotency-replay-race]). Keys are scoped by account and route.
 */
export function requireIdempotencyKey(ctx: SandboxContext, options: IdempotencyOptions = {}): RequestHandler {
  const onDifferentBody = options.onDifferentBody ?? 'conflict';
  const afterFailure = options.afterFailure ?? 'process';
  return (req, res, next) => {
    const key = req.get('idempotency-key');
    if (!key)
      return sendZodValidation(res, [{ path: 'idempotency-key', message: 'Required', code: 'invalid_type' }]);
    if (!isUuidV4(key))
      return sendZodValidation(res, [
        { path: 'idempotency-key', message: 'Idempotency-Key must be a UUID v4', code: 'invalid_string' },
      ]);
    const account = accountOf(res).clientUuid;
    const route = `${req.method} ${req.baseUrl.replace(/^\/sandbox/, '')}${req.path}`;
    const fingerprint = bodyFingerprint(requestState(res));
    const stored = ctx.idempotency.get(account, route, key);
    // A body never read (the client gave up before the sandbox read it) cannot differ: the key decides.
    if (stored && (fingerprint === undefined || stored.requestSha256 === fingerprint)) {
      ctx.telemetry.counters.idempotentReplays++;
      res.status(stored.status).json(stored.body);
      return;
    }
    if (stored) {
      // One key per logical call: a key reused for another body is a client bug; count it so tests
      // can assert it never happens.
      ctx.telemetry.counters.idempotencyKeyReuses++;
      ctx.logger.warn(`${route}: Idempotency-Key reused with a different body (${onDifferentBody})`);
      if (onDifferentBody === 'conflict') {
        return sendTypedError(
          res,
          409,
          'IDEMPOTENCY_CONFLICT',
          'This Idempotency-Key was already used with a different request body',
        );
      }
      return next();
    }
    const failure = ctx.idempotency.failure(account, route, key);
    if (afterFailure === 'refuse' && failure && failure.requestSha256 !== fingerprint) {
      ctx.telemetry.counters.idempotencyKeyReuses++;
      return sendFlatError(res, 400, 'validation_error', 'Failed to store idempotency key');
    }
    if (!ctx.idempotency.begin(account, route, key)) {
      return sendError(res, 409, 'conflict', 'A request with this Idempotency-Key is still being processed');
    }
    const json = res.json.bind(res);
    res.json = (body: unknown) => {
      ctx.idempotency.finish(account, route, key, {
        status: res.statusCode,
        body,
        requestSha256: fingerprint,
      });
      return json(body);
    };
    res.on('close', () => ctx.idempotency.finish(account, route, key));
    next();
  };
}
