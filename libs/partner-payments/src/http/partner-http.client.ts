import { tokenFailureOutcome } from '../auth/auth-failure.util';
import { PartnerTokenManager } from '../auth/token-manager.service';
import { PartnerLocalValidationError, type PartnerFieldError } from '../errors/partner.errors';
import type { ResolvedPartnerOptions } from '../options-resolver.util';
import { PartnerApiVersionState } from './api-version-state.service';
import {
  isNonJsonSuccess,
  NON_JSON_SUCCESS_OUTCOME,
  runAttempts,
  toAttemptOutcome,
  toNonJsonSuccessError,
  toPartnerError,
  type AttemptVerdict,
} from './attempt.util';
import { buildPartnerHeaders, resolveVersionHeader } from './headers.util';
import type { PartnerHttp, PartnerRequest, PartnerResponse, TransportResult } from './http.types';
import { replayIsDeduplicated, requiresIdempotencyKey, resolveIdempotencyKey } from './idempotency.policy';
import { systemClock } from './rate-limiter.policy';
import { PartnerTransport } from './transport/partner-transport.client';
import { buildQueryString, joinQueryStrings, splitPathQuery } from './url.util';
import { UUID_V4_PATTERN } from '../resources/shared/validation.util';

/**
 * Per-call overrides are checked before any I/O, like the module options at boot: a NaN or negative
 * maxRetries (e.g. from an unset environment variable) must not become "retry forever" or "never send".
 */

function checkPerCallOptions(req: PartnerRequest): void {
  const { maxRetries, timeoutMs, idempotencyKey } = req;
  if (maxRetries === undefined && timeoutMs === undefined && idempotencyKey === undefined) return;
  const errors: PartnerFieldError[] = [];
  if (maxRetries !== undefined && !(Number.isSafeInteger(maxRetries) && maxRetries >= 0))
    errors.push({ field: 'maxRetries', message: `must be an integer >= 0, got ${String(maxRetries)}` });
  if (timeoutMs !== undefined && !(Number.isFinite(timeoutMs) && timeoutMs > 0))
    errors.push({ field: 'timeoutMs', message: `must be a number > 0, got ${String(timeoutMs)}` });
  if (idempotencyKey !== undefined && typeof idempotencyKey !== 'string') {
    errors.push({ field: 'idempotencyKey', message: 'must be a string' });
  } else if (
    idempotencyKey &&
    requiresIdempotencyKey(req.method, `/${splitPathQuery(req.path).path.replace(/^\/+/, '')}`) &&
    !UUID_V4_PATTERN.test(idempotencyKey)
  ) {
    // spec 8: a UUID v4. The server refuses anything else, so say it before the write is sent.
    errors.push({ field: 'idempotencyKey', message: 'must be a UUID v4 on this route (spec 8)' });
  }
  if (errors.length > 0) throw new PartnerLocalValidationError(errors);
}

/**
 * Every authenticated call to the partner (spec 4 common headers, 5 auth, 9 versioning):
 * headers, one Idempotency-Key per logical call, one retry loop whose every attempt takes the token
 * then sends, one re-auth and re-send on a 401 (spec 5.7), typed errors (spec 7).
 * Provided by PartnerPaymentsModule through a factory provider (inject it by class); it carries no
 * decorators so the core runs, and is unit-tested, without Nest.
 */
export class PartnerHttpClient implements PartnerHttp {
  constructor(
    private readonly transport: PartnerTransport,
    private readonly tokens: PartnerTokenManager,
    private readonly versionState: PartnerApiVersionState,
    private readonly options: ResolvedPartnerOptions,
  ) {}

  /** Which partner environment this client talks to (sandbox-only operations check it before any I/O). */
  get environment(): ResolvedPartnerOptions['environment'] {
    return this.options.environment;
  }

  request<T>(req: PartnerRequest): Promise<PartnerResponse<T>> {
    // Not an async function (one promise and resumption fewer per call), so a synchronous throw of
    // the preparation (a refused option, a body JSON cannot serialise) is turned into the rejection.
    try {
      return this.start<T>(req);
    } catch (err) {
      return Promise.reject(err);
    }
  }

  /** Checks and prepares the call (everything decided once), then runs its attempts. */
  private start<T>(req: PartnerRequest): Promise<PartnerResponse<T>> {
    checkPerCallOptions(req);
    const method = req.method.toUpperCase() as PartnerRequest['method'];
    // A query written into the path is kept, before `query`'s.
    const inline = splitPathQuery(req.path);
    const path = `/${inline.path.replace(/^\/+/, '')}`;
    const queryString = joinQueryStrings(inline.queryString, buildQueryString(req.query));
    // Decided once, before the first attempt; the same key on every retry (stripe-php#637).
    const idempotencyKey = resolveIdempotencyKey(method, path, req.idempotencyKey);
    // A caller key on a route that does not de-duplicate is sent, but does not make a write retryable.
    const deduplicated = replayIsDeduplicated(method, path, idempotencyKey);
    const replayable = req.bodyReplayable !== false;
    const callRetries = req.maxRetries ?? this.options.maxRetries;
    const timeoutMs = req.timeoutMs ?? this.options.timeoutMs;
    // A JSON body is the same on every attempt; a multipart one is built anew for each.
    const json = req.body !== undefined && !req.multipart ? JSON.stringify(req.body) : undefined;
    let reauthenticated = false;

    const attemptOnce = async (attempt: number): Promise<AttemptVerdict<PartnerResponse<T>>> => {
      // The token step: with no usable token, authenticate before queueing for the rate limiter
      // (POST /auth queues there too, and behind this call's own place every queued call would wait
      // for it). Nothing of the request is sent or built yet, so its failure is retried within
      // this call's budget even for a body that cannot be sent twice.
      try {
        if (this.tokens.current() === null) await this.tokens.tokenForAttempt();
      } catch (err) {
        return this.tokenStepFailed(err, callRetries);
      }
      const apiVersion = resolveVersionHeader({
        area: req.area ?? 'default',
        perCallVersion: req.apiVersion,
        versionHeaderRequired: req.versionHeaderRequired,
        apiVersion: this.options.apiVersion,
        rfiVersion: this.options.apiVersionOverrides.rfis,
        sendVersionHeader: this.options.sendVersionHeader,
        pinnedVersion: this.versionState.pinnedVersion,
      });
      let data: unknown = json;
      let contentType: string | undefined = json === undefined ? undefined : 'application/json';
      if (req.multipart) {
        const form = req.multipart();
        data = form;
        contentType = form.getHeaders()['content-type'] as string;
      }
      // The token sent is read when the limiter lets this attempt go, not before: a call queued
      // behind the limiter longer than the refresh skew would otherwise leave with an expired
      // token and get a 401 (spec 5.7). The Idempotency-Key above stays the call's one.
      let token = '';
      const headersWith = (accessToken: string): Record<string, string> => {
        token = accessToken;
        return buildPartnerHeaders({
          apiKey: this.options.apiKey,
          accessToken,
          apiVersion,
          idempotencyKey,
          contentType,
          extra: req.headers,
        });
      };
      let sent: TransportResult;
      try {
        sent = await this.transport.send({
          method,
          path,
          queryString,
          headers: () => {
            const held = this.tokens.current();
            return held !== null ? headersWith(held) : this.tokens.tokenForAttempt().then(headersWith);
          },
          data,
          timeoutMs,
          idleTimeoutOnly: req.multipart !== undefined,
          attempt,
          responseType: req.responseType,
          bodyTimeoutMs: req.bodyTimeoutMs,
        });
      } catch (err) {
        // send() throws only what the headers step threw: the token step failed after the wait.
        // The body was built for this attempt by then: one that cannot be built twice is not.
        return this.tokenStepFailed(err, replayable ? callRetries : 0);
      }
      const res = sent;
      const success = res.kind === 'response' && res.status >= 200 && res.status < 300;
      // A 2xx whose body is a gateway's text page is a failure, not an empty answer (evidence §8).
      const nonJson = success && req.responseType !== 'stream' && isNonJsonSuccess(res);
      if (success && !nonJson) {
        this.transport.emitOutcome(method, path, attempt, res, false);
        // A string left here is empty or whitespace (isNonJsonSuccess refused any other): no body.
        const data = (typeof res.data === 'string' ? null : res.data) as T;
        const { status, headers, requestId } = res;
        const meta = { status, headers, requestId, idempotencyKey, apiVersion, attempts: attempt };
        return { kind: 'done', value: { data, meta } };
      }
      // spec 5.7: on a 401 re-authenticate and re-send once; never loop. Does not use a retry.
      if (res.kind === 'response' && res.status === 401 && !reauthenticated && replayable) {
        reauthenticated = true;
        this.transport.emitOutcome(method, path, attempt, res, true);
        this.tokens.invalidate(token);
        return { kind: 'resend' };
      }
      const failed = res;
      return {
        kind: 'failed',
        method,
        hasIdempotencyKey: deduplicated,
        outcome: nonJson ? NON_JSON_SUCCESS_OUTCOME : toAttemptOutcome(failed),
        // A body that cannot be sent twice is never re-sent.
        maxRetries: replayable ? callRetries : 0,
        decided: (willRetry) => this.transport.emitOutcome(method, path, attempt, failed, willRetry),
        error: () => {
          // A token the server refused is dropped, so the next call re-authenticates.
          if (failed.kind === 'response' && failed.status === 401) this.tokens.invalidate(token);
          return nonJson && failed.kind === 'response'
            ? toNonJsonSuccessError(failed, { method, path, idempotencyKey })
            : toPartnerError(failed, { method, path, idempotencyKey });
        },
      };
    };

    return runAttempts(
      { maxRetries: callRetries, backoff: this.options.retry, sleep: (ms) => systemClock.sleep(ms) },
      attemptOnce,
    );
  }

  /**
   * A failed token step is a failed attempt of the call: the partner unavailable is retried within
   * the call's budget (POST /auth is safe to replay, and the request was not sent); a refused
   * credential ends the call.
   */
  private tokenStepFailed(err: unknown, maxRetries: number): AttemptVerdict<never> {
    const outcome = tokenFailureOutcome(err);
    if (outcome === null) throw err;
    return {
      kind: 'failed',
      method: 'POST',
      hasIdempotencyKey: true,
      outcome,
      maxRetries,
      error: () => err as Error,
    };
  }
}
