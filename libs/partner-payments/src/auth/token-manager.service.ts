import type { Context } from '@opentelemetry/api';
import type { ResolvedPartnerOptions } from '../options-resolver.util';
import type { PartnerAuth } from './partner-auth.types';
import { readAuthAnswer } from './auth-answer.util';
import { isUnavailable, toAuthError } from './auth-failure.util';
import {
  isNonJsonSuccess,
  NON_JSON_SUCCESS_OUTCOME,
  runAttempts,
  toAttemptOutcome,
  toNonJsonSuccessError,
  toPartnerError,
  type AttemptVerdict,
} from '../http/attempt.util';
import { buildPartnerHeaders } from '../http/headers.util';
import { PartnerTransport } from '../http/transport/partner-transport.client';
import { observeTokenRefresh } from '../observability/http-instrumentation.util';
import { systemClock, type Clock } from '../http/rate-limiter.policy';

interface CachedToken {
  value: string;
  expiresAt: number;
  /** Refresh this long before expiry: the configured skew, but at most half the lifetime. */
  skewMs: number;
}

/**
 * Inside the skew, a held token is still handed out while more than this remains (at most half the
 * skew): enough for an attempt to reach the partner before expiry. Below it, callers wait for the
 * refresh, since spec 5.7 answers an expired token with a 401.
 */
const SAFETY_MARGIN_MS = 30_000;
/**
 * After a background refresh failed, the next one starts no sooner than this: during an /auth
 * outage each refresh already makes 1 + maxRetries attempts, and starting one per call would turn
 * the outage into an /auth storm on the account's shared rate budget (provider-facts: 20/s).
 */
const REFRESH_COOLDOWN_MS = 30_000;

/**
 * Bearer tokens (spec 5). One cached token; refreshed when fewer than tokenRefreshSkewSeconds remain;
 * one in-flight POST /auth shared by every concurrent caller (a token expiry under load must not become one /auth call per caller).
 * Provided by PartnerPaymentsModule through a factory provider (inject it by class); it carries no
 * decorators so the core runs, and is unit-tested, without Nest.
 */
export class PartnerTokenManager implements PartnerAuth {
  private token: CachedToken | null = null;
  /**
   * Whether this client_id has been accepted once. The partner answers 500 for an unknown client_id
   * (evidence §1 [T1]), so before that a 500 from POST /auth is a refused credential; after it, the
   * same 500 is the partner failing (its generic 500 body is the same, evidence §2 shape I), and a
   * still-valid token in hand carries on as with a 503.
   */
  private accepted = false;
  private inflight: Promise<string> | null = null;
  /** No background refresh starts before this time (ms, clock time): the cool-down after a failure. */
  private backgroundPausedUntil = 0;
  private readonly clock: Clock;

  constructor(
    private readonly transport: PartnerTransport,
    private readonly options: ResolvedPartnerOptions,
    clock?: Clock,
  ) {
    this.clock = clock ?? systemClock;
  }

  /**
   * A usable token; authenticates (once, shared) only when none is held. Inside the refresh skew
   * (provider-facts: refresh when less than 5 minutes remain) the held token is returned at once and
   * refreshed in the background (see current()): awaiting the refresh there made every call wait
   * for POST /auth with all its retries during an /auth outage, although the partner still accepted
   * the token. When the blocking refresh fails because the partner is unavailable (5xx, network,
   * 429) while the token in hand has not expired yet, the call goes on with it. A refused credential
   * is thrown.
   */
  async getToken(): Promise<string> {
    const current = this.current();
    if (current !== null) return current;
    return this.orHeldToken(this.refresh());
  }

  /**
   * The token step of one attempt of a call (PartnerHttpClient runs it inside each attempt of its
   * retry loop): the held token, else one POST /auth attempt shared by every concurrent caller (or
   * the refresh already in flight). Its failure is the call's failed attempt, so the call's own
   * retry budget covers the token and the request together. Same fallback as getToken().
   */
  tokenForAttempt(): Promise<string> {
    const current = this.current();
    if (current !== null) return Promise.resolve(current);
    return this.orHeldToken(this.flight(0));
  }

  /** The partner unavailable while the token in hand has not expired: carry on with it. */
  private async orHeldToken(refreshed: Promise<string>): Promise<string> {
    try {
      return await refreshed;
    } catch (err) {
      const held = this.token;
      if (held && held.expiresAt > this.clock.now() && isUnavailable(err)) return held.value;
      throw err;
    }
  }

  /**
   * A token the caller may send now, else null (then getToken() authenticates); never waits. Inside
   * the skew, while more than a safety margin remains, the held token is returned and one
   * background refresh is started: single-flight (it is the shared refresh()), and after a failed
   * one not again before a cool-down, so an /auth outage costs 1 + maxRetries attempts per
   * cool-down, not per call. Its failure is reported through onTokenEvent and logged, never thrown
   * to a caller who had a valid token.
   */
  current(): string | null {
    const t = this.token;
    if (t === null) return null;
    const left = t.expiresAt - this.clock.now();
    if (left > t.skewMs) return t.value;
    if (left <= Math.min(SAFETY_MARGIN_MS, t.skewMs / 2)) return null;
    this.refreshInBackground(t, left);
    return t.value;
  }

  private refreshInBackground(held: CachedToken, leftMs: number): void {
    if (this.inflight !== null || this.clock.now() < this.backgroundPausedUntil) return;
    this.refresh().catch((err: unknown) => {
      this.backgroundPausedUntil = this.clock.now() + REFRESH_COOLDOWN_MS;
      const still =
        this.token === held
          ? `; the held token (${Math.round(leftMs / 1000)} s left) is used until then`
          : '';
      this.options.logger.warn(
        `Partner token refresh in the background failed (${(err as Error).message}); next try in ${REFRESH_COOLDOWN_MS / 1000} s at the earliest${still}`,
      );
    });
  }

  /** Forces a new token (POST /auth with up to maxRetries retries); concurrent callers share it. */
  refresh(): Promise<string> {
    return this.flight(this.options.maxRetries);
  }

  /** The one refresh in flight, or a new one of 1 + maxRetries attempts. */
  private flight(maxRetries: number): Promise<string> {
    if (!this.inflight) {
      this.inflight = observeTokenRefresh(this.options.onTokenEvent, (traceParent) =>
        this.authenticate(traceParent, maxRetries),
      )
        .catch((err: unknown) => {
          // Credentials refused (or an unusable answer): nothing cached survives. The partner
          // unavailable: a still-valid token stays, for getToken()'s fallback.
          if (!isUnavailable(err)) this.token = null;
          throw err;
        })
        .finally(() => {
          this.inflight = null;
        });
    }
    return this.inflight;
  }

  /**
   * Drops the cached token after a 401. With `staleToken`, only when it is still the cached one:
   * a caller whose old token failed must not throw away the fresh token another caller just got.
   */
  invalidate(staleToken?: string): void {
    if (staleToken === undefined || this.token?.value === staleToken) this.token = null;
  }

  /** When the cached token expires (ms since epoch), or null. For health checks; never the token. */
  get expiresAt(): number | null {
    return this.token?.expiresAt ?? null;
  }

  private authenticate(traceParent: Context, maxRetries: number): Promise<string> {
    // An expired token is dropped; one still valid (refreshed early, inside the skew) is kept until
    // the new one is stored, as the fallback getToken() uses if this refresh fails.
    if (this.token && this.token.expiresAt <= this.clock.now()) this.token = null;
    return runAttempts(
      { maxRetries, backoff: this.options.retry, sleep: (ms) => this.clock.sleep(ms) },
      (attempt) => this.authenticateOnce(attempt, traceParent),
    );
  }

  /** One POST /auth on the wire (spec 4.1 / 5.3: x-api-key only, no bearer, version or key). */
  private async authenticateOnce(attempt: number, traceParent: Context): Promise<AttemptVerdict<string>> {
    const res = await this.transport.send({
      method: 'POST',
      path: '/auth',
      queryString: '',
      headers: buildPartnerHeaders({
        apiKey: this.options.apiKey,
        accessToken: null,
        apiVersion: null,
        idempotencyKey: null,
        contentType: 'application/json',
      }),
      data: JSON.stringify({ client_id: this.options.clientId, password: this.options.password }),
      timeoutMs: this.options.timeoutMs,
      attempt,
      traceParent,
    });
    // A gateway's text page with a 2xx is the partner unavailable (evidence §8), not a refusal of
    // our credentials: retried, and a held token carries on.
    const nonJson = res.kind === 'response' && res.status >= 200 && res.status < 300 && isNonJsonSuccess(res);
    if (res.kind === 'response' && res.status >= 200 && res.status < 300 && !nonJson) {
      this.transport.emitOutcome('POST', '/auth', attempt, res, false);
      return { kind: 'done', value: this.store(res.data) };
    }
    // POST /auth creates nothing, so replaying it is safe: judged like a keyed write. A 401 is a
    // refused credential pair (spec 5.7), and so is a 500 before the client_id was ever accepted
    // (the partner's answer to an unknown one, evidence §1 [T1]): asking again cannot help, and
    // each attempt spends the account's shared rate budget (refusesPair).
    const where = { method: 'POST', path: '/auth', idempotencyKey: null };
    return {
      kind: 'failed',
      method: 'POST',
      hasIdempotencyKey: true,
      outcome: nonJson ? NON_JSON_SUCCESS_OUTCOME : toAttemptOutcome(res),
      retryable: !(res.kind === 'response' && this.refusesPair(res.status)),
      decided: (willRetry) => this.transport.emitOutcome('POST', '/auth', attempt, res, willRetry),
      error: () =>
        toAuthError(
          nonJson && res.kind === 'response' ? toNonJsonSuccessError(res, where) : toPartnerError(res, where),
          this.accepted,
          this.options.logger,
        ),
    };
  }

  /** A POST /auth answer that refuses the credential pair: 401 (spec 5.7); 500 until accepted once (evidence §1). */
  private refusesPair(status: number): boolean {
    return status === 401 || (status === 500 && !this.accepted);
  }

  private store(body: unknown): string {
    const { accessToken, lifetimeS, skewMs } = readAuthAnswer(body, this.options.tokenRefreshSkewSeconds);
    this.token = { value: accessToken, expiresAt: this.clock.now() + lifetimeS * 1000, skewMs };
    this.accepted = true;
    this.options.logger.debug?.(`Partner token obtained, expires in ${lifetimeS} s`);
    return accessToken;
  }
}
