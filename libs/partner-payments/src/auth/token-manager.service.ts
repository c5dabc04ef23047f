import type { LoggerService } from '@nestjs/common';
import type { Context } from '@opentelemetry/api';
import type { ResolvedPartnerOptions } from '../options-resolver.util';
import {
  PartnerApiError,
  PartnerAuthenticationError,
  PartnerConnectionError,
  PartnerRateLimitError,
  PartnerServerError,
} from '../errors/partner-api.errors';
import { toAttemptOutcome, toPartnerError } from '../http/attempt.util';
import { buildPartnerHeaders } from '../http/headers.util';
import { PartnerTransport } from '../http/partner-transport.client';
import { computeBackoffMs, shouldRetry } from '../http/retry.policy';
import { observeTokenRefresh } from '../observability/http-instrumentation.util';
import { systemClock, type Clock } from '../http/rate-limiter.policy';

/** spec 4.1: { message, data: { access_token, expires_in, token_type } }. */
interface AuthResponseBody {
  message?: string;
  data?: { access_token?: unknown; expires_in?: unknown; token_type?: unknown };
}

/** The partner unavailable (5xx, no answer, 429), as opposed to our credentials refused. */
function isUnavailable(err: unknown): boolean {
  return (
    err instanceof PartnerServerError ||
    err instanceof PartnerConnectionError ||
    err instanceof PartnerRateLimitError
  );
}

interface CachedToken {
  value: string;
  expiresAt: number;
  /** Refresh this long before expiry: the configured skew, but at most half the lifetime. */
  skewMs: number;
}

/**
 * Bearer tokens (spec 5). One cached token; refreshed when fewer than tokenRefreshSkewSeconds remain;
 * one in-flight POST /auth shared by every concurrent caller (DESIGN: the google-auth-library lesson).
 * Provided by PartnerPaymentsModule through a factory provider (inject it by class); it carries no
 * decorators so the core runs, and is unit-tested, without Nest.
 */
export class PartnerTokenManager {
  private token: CachedToken | null = null;
  /**
   * Whether this client_id has been accepted once. The partner answers 500 for an unknown client_id
   * (evidence §1 [T1]), so before that a 500 from POST /auth is a refused credential; after it, the
   * same 500 is the partner failing (its generic 500 body is the same, evidence §2 shape I), and a
   * still-valid token in hand carries on as with a 503.
   */
  private accepted = false;
  private inflight: Promise<string> | null = null;
  private readonly clock: Clock;

  constructor(
    private readonly transport: PartnerTransport,
    private readonly options: ResolvedPartnerOptions,
    private readonly logger: LoggerService = options.logger,
    clock?: Clock,
  ) {
    this.clock = clock ?? systemClock;
  }

  /**
   * A token valid for at least the skew; authenticates (once, shared) when needed. When that early
   * refresh fails because the partner is unavailable (5xx, network, 429) while the token in hand has
   * not expired yet, the call goes on with it: the partner still accepts it, and failing a payout
   * for an /auth blip minutes before expiry helps nobody. A refused credential is still thrown.
   */
  async getToken(): Promise<string> {
    const cached = this.cached();
    if (cached !== null) return cached;
    try {
      return await this.refresh();
    } catch (err) {
      const held = this.token;
      if (held && held.expiresAt > this.clock.now() && isUnavailable(err)) return held.value;
      throw err;
    }
  }

  /**
   * The cached token when it is valid for at least the skew, else null; never any I/O. Every call
   * checks this first: awaiting getToken() for a token already in hand cost each call an extra
   * async hop (issue 14, client p50 at c=1).
   */
  cached(): string | null {
    const t = this.token;
    return t && t.expiresAt - this.clock.now() > t.skewMs ? t.value : null;
  }

  /** Forces a new token; concurrent callers share the same POST /auth. */
  refresh(): Promise<string> {
    if (!this.inflight) {
      this.inflight = observeTokenRefresh(this.options.onTokenEvent, (traceParent) =>
        this.authenticate(traceParent),
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

  private async authenticate(traceParent: Context): Promise<string> {
    // An expired token is dropped; one still valid (refreshed early, inside the skew) is kept until
    // the new one is stored, as the fallback getToken() uses if this refresh fails.
    if (this.token && this.token.expiresAt <= this.clock.now()) this.token = null;
    const maxRetries = this.options.maxRetries;
    for (let attempt = 1; ; attempt++) {
      const res = await this.transport.send({
        method: 'POST',
        path: '/auth',
        queryString: '',
        // spec 4.1 / 5.3: x-api-key only, no bearer, no version, no idempotency key.
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
      if (res.kind === 'response' && res.status >= 200 && res.status < 300) {
        this.transport.emitOutcome('POST', '/auth', attempt, res, false);
        return this.store(res.data);
      }
      // POST /auth creates nothing, so replaying it is safe: treat it like a keyed write. A 401 is a
      // refused credential pair (spec 5.7), and so is a 500 before the client_id was ever accepted
      // (the partner's answer to an unknown one, evidence §1 [T1]): asking again cannot help, and
      // each attempt spends the account's shared rate budget (refusesPair).
      const decision = shouldRetry({
        attempt,
        maxRetries,
        method: 'POST',
        hasIdempotencyKey: true,
        outcome: toAttemptOutcome(res),
      });
      const willRetry = decision.retry && !(res.kind === 'response' && this.refusesPair(res.status));
      this.transport.emitOutcome('POST', '/auth', attempt, res, willRetry);
      if (willRetry) {
        await this.clock.sleep(computeBackoffMs(attempt, this.options.retry, decision.retryAfterMs));
        continue;
      }
      const cause = toPartnerError(res, { method: 'POST', path: '/auth', idempotencyKey: null });
      throw this.authError(cause);
    }
  }

  /**
   * Classifies a failed POST /auth by cause (issue 9, defect 2): the partner unavailable (5xx,
   * timeout, reset, 429) keeps its class (PartnerServerError, PartnerConnectionError,
   * PartnerRateLimitError), so callers treat it as "retry later, same key" and never as a refusal of
   * their request; the request itself was never sent. Our credentials refused (401, and any other
   * 4xx of /auth) is a PartnerAuthenticationError: a configuration problem.
   */
  private authError(cause: PartnerApiError): PartnerApiError {
    if (cause instanceof PartnerAuthenticationError) return cause;
    if (cause.status === 500 && this.refusesPair(500)) {
      // evidence §1: "the client should also treat a 500 from /auth as a credential failure"
      // (an unknown client_id answers 500 there), until the client_id has been accepted once: after
      // that a 500 is the partner failing and keeps its class below, as a 502/503/504, a timeout or
      // a reset do.
      this.logger.warn(
        'Partner authentication failed: POST /auth answered 500, which the partner answers for an unknown client_id; check the configured client id',
      );
      return new PartnerAuthenticationError({
        status: 500,
        code: cause.code,
        message: `Authentication failed: POST /auth answered 500, the partner's answer to an unknown client_id (${cause.message})`,
        details: cause.details,
        body: cause.body,
        requestId: cause.requestId,
        cause,
      });
    }
    if (isUnavailable(cause)) {
      this.logger.warn(`Partner authentication unavailable: ${cause.message}`);
      return cause;
    }
    this.logger.warn(`Partner authentication failed: ${cause.message}`);
    return new PartnerAuthenticationError({
      status: cause.status,
      code: cause.status === null ? `auth_${cause.code}` : cause.code,
      message: `Authentication failed: ${cause.message}`,
      details: cause.details,
      body: cause.body,
      requestId: cause.requestId,
      cause,
    });
  }

  /** A POST /auth answer that refuses the credential pair: 401 (spec 5.7); 500 until accepted once (evidence §1). */
  private refusesPair(status: number): boolean {
    return status === 401 || (status === 500 && !this.accepted);
  }

  private store(body: unknown): string {
    const b = (typeof body === 'object' && body !== null ? body : {}) as AuthResponseBody;
    const accessToken = b.data?.access_token;
    const expiresIn = Number(b.data?.expires_in);
    if (typeof accessToken !== 'string' || accessToken === '') {
      throw new PartnerAuthenticationError({
        status: 200,
        code: 'invalid_auth_response',
        message: 'POST /auth answered without data.access_token',
      });
    }
    // provider-facts: documented 3600, seen 86400: read it. A missing value gets a cautious 5 minutes
    // beyond the skew rather than an assumed hour.
    const lifetimeS =
      Number.isFinite(expiresIn) && expiresIn > 0 ? expiresIn : this.options.tokenRefreshSkewSeconds + 300;
    // A skew longer than the lifetime would make every call re-authenticate: keep half the lifetime usable.
    const skewMs = Math.min(this.options.tokenRefreshSkewSeconds * 1000, (lifetimeS * 1000) / 2);
    this.token = { value: accessToken, expiresAt: this.clock.now() + lifetimeS * 1000, skewMs };
    this.accepted = true;
    this.logger.debug?.(`Partner token obtained, expires in ${lifetimeS} s`);
    return accessToken;
  }
}
