import type { AxiosInstance, AxiosRequestConfig } from 'axios';
import type { Readable } from 'node:stream';
import type { ResolvedPartnerOptions } from '../../options-resolver.util';
import { notifyListener } from '../../observability/hooks.util';
import { reportRateLimitWait, traceAttempt } from '../../observability/http-instrumentation.util';
import { tracingOff } from '../../observability/partner-tracing.util';
import { partnerRouteTemplate } from '../../observability/route-template.util';
import { toOutcomeEvent } from '../attempt.util';
import { AttemptDeadline } from './attempt-deadline.util';
import {
  ACCEPT_EVERY_STATUS,
  MAX_ANSWER_BYTES,
  sendsDirectWithoutLookup,
  TRANSITIONAL,
} from './axios-config.util';
import type { TransportRequest, TransportResult } from '../http.types';
import { PartnerRateLimiter } from '../rate-limiter.policy';
import { guardResponseStream } from '../stream-body.util';
import { pickRequestId, plainHeaders, readSmallBody, toSafeNetworkCause } from './transport-result.util';
import { joinUrl } from '../url.util';

/**
 * One attempt over the wire, on the axios instance of @nestjs/axios's HttpService.
 * Never throws for an HTTP status or a network failure: it reports them, the client decides.
 * Shared by PartnerHttpClient and PartnerTokenManager so the rate limiter and the events see /auth too.
 * Provided by PartnerPaymentsModule through a factory provider (inject it by class); it carries no
 * decorators so the core runs, and is unit-tested, without Nest.
 */
export class PartnerTransport {
  private readonly limiter: PartnerRateLimiter | null;
  /** apiBaseUrl without a trailing slash; paths arrive with one leading slash (joinUrl, once). */
  private readonly baseUrl: string;
  /** `false` when no proxy can apply (sendsDirectWithoutLookup), else undefined: axios decides. */
  private readonly proxy: false | undefined;

  constructor(
    private readonly axios: AxiosInstance,
    private readonly options: ResolvedPartnerOptions,
  ) {
    this.baseUrl = joinUrl(options.apiBaseUrl, '');
    this.proxy = sendsDirectWithoutLookup(axios.defaults) ? false : undefined;
    const rl = options.rateLimit;
    this.limiter =
      rl === false
        ? null
        : new PartnerRateLimiter(
            { requestsPerSecond: rl.requestsPerSecond, burst: rl.burst },
            rl.budget ?? null,
            undefined,
            options.logger,
          );
  }

  /**
   * One attempt: waits for the rate limiter, builds the headers when `req.headers` is a function
   * (after the wait, so the bearer token is read when the attempt leaves, spec 5.7: an expired one
   * is answered 401), then sends inside the attempt's span. Throws only what that function throws
   * (e.g. a failed POST /auth), before anything is sent.
   */
  send(req: TransportRequest): Promise<TransportResult> {
    // Without a limiter and with the token in hand, no await of its own: each async layer is a
    // promise and a resumption on every call.
    return this.limiter ? this.sendAfterWait(req, this.limiter) : this.sendWithHeaders(req, 0);
  }

  private async sendAfterWait(req: TransportRequest, limiter: PartnerRateLimiter): Promise<TransportResult> {
    const started = performance.now();
    await limiter.acquire();
    // Timed here rather than asked of the limiter, so any budget implementation is observed.
    const waitMs = Math.round(performance.now() - started);
    if (waitMs >= 1) reportRateLimitWait(this.options.onRateLimitWait, req.method, req.path, waitMs);
    return this.sendWithHeaders(req, waitMs);
  }

  /** The headers go alongside the request, not into a copy of it: one object fewer per attempt. */
  private sendWithHeaders(req: TransportRequest, waitMs: number): Promise<TransportResult> {
    if (typeof req.headers !== 'function') return this.sendTraced(req, req.headers, waitMs);
    let built: ReturnType<typeof req.headers>;
    try {
      built = req.headers();
    } catch (err) {
      return Promise.reject(err);
    }
    if (built instanceof Promise) return built.then((headers) => this.sendTraced(req, headers, waitMs));
    return this.sendTraced(req, built, waitMs);
  }

  private sendTraced(
    req: TransportRequest,
    headers: Record<string, string>,
    waitMs: number,
  ): Promise<TransportResult> {
    // With no OpenTelemetry SDK registered the span is skipped whole: no closure, name or no-op span.
    if (tracingOff()) return this.sendOnce(req, headers);
    return traceAttempt(req, headers, waitMs, () => this.sendOnce(req, headers));
  }

  private async sendOnce(req: TransportRequest, headers: Record<string, string>): Promise<TransportResult> {
    // axios's `timeout` in Node is an idle timeout (ClientRequest.setTimeout): it fires only after
    // that long without socket activity, so a partner or gateway trickling a byte now and then would hold
    // the call, and its limiter slot, far past timeoutMs. This is the hard deadline the option
    // documents ("per-attempt timeout"): connect, send and the whole answer.
    // For a streamed 2xx (downloads) it covers the attempt up to the response head; the body then
    // has its own deadlines (guardResponseStream). Cleared when the attempt ends, so no timer outlives a call.
    // An upload keeps the idle timeout alone (TransportRequest.idleTimeoutOnly): its body takes as
    // long as the link needs.
    const deadline = req.idleTimeoutOnly ? undefined : new AttemptDeadline(req.timeoutMs);
    const config: AxiosRequestConfig = {
      method: req.method,
      url: `${this.baseUrl}${req.path}${req.queryString}`,
      headers,
      data: req.data,
      responseType: req.responseType ?? 'json',
      // The deadline above ends the attempt first, so axios's own idle timer (a socket timer
      // re-armed on every chunk) is needed only where there is no deadline: uploads.
      timeout: req.idleTimeoutOnly ? req.timeoutMs : 0,
      signal: deadline,
      validateStatus: ACCEPT_EVERY_STATUS,
      // Redirects would re-send x-api-key and the bearer token to wherever Location points.
      maxRedirects: 0,
      // Uploads stream up to 20 × 30 MB (spec 8); the per-file limits are checked before I/O.
      maxBodyLength: Infinity,
      maxContentLength: MAX_ANSWER_BYTES,
      transitional: TRANSITIONAL,
      proxy: this.proxy,
    };
    const { method, path, attempt } = req;
    if (this.options.onHttpEvent !== null)
      notifyListener(this.options.onHttpEvent, {
        type: 'request',
        method,
        path,
        route: partnerRouteTemplate(path),
        attempt,
      });
    const started = performance.now();
    try {
      const res = await this.axios.request(config);
      const received = plainHeaders(res.headers);
      let data: unknown = res.data;
      // An error answer to a download is small: read it so the error parser sees the body.
      if (req.responseType === 'stream' && (res.status < 200 || res.status >= 300))
        data = await readSmallBody(data);
      else if (req.responseType === 'stream') data = guardResponseStream(data as Readable, req);
      const durationMs = Math.floor(performance.now() - started);
      this.options.logger.debug?.(
        `${method} ${path} → ${res.status} in ${durationMs} ms (attempt ${attempt})`,
      );
      const requestId = pickRequestId(received);
      return { kind: 'response', status: res.status, headers: received, data, requestId, durationMs };
    } catch (err: unknown) {
      const durationMs = Math.floor(performance.now() - started);
      // axios errors and Node errno errors (e.g. a file stream failing) both carry `code`.
      const code = (err as { code?: unknown } | null)?.code;
      // The deadline's abort surfaces as axios's ERR_CANCELED: report it as the timeout it is, so
      // the retry policy and the error class treat it as the idle timeout (ETIMEDOUT): retried on
      // GETs and keyed writes, never on a keyless write that may have reached the partner.
      const pastDeadline = deadline?.aborted === true;
      const errorCode = pastDeadline ? 'ETIMEDOUT' : typeof code === 'string' ? code : undefined;
      const timedOut = errorCode === 'ETIMEDOUT' || errorCode === 'ECONNABORTED';
      const message = pastDeadline
        ? `no complete answer within ${req.timeoutMs} ms`
        : err instanceof Error
          ? err.message
          : String(err);
      this.options.logger.debug?.(
        `${method} ${path} failed: ${errorCode ?? 'error'} in ${durationMs} ms (attempt ${attempt})`,
      );
      return {
        kind: 'network',
        code: errorCode,
        timedOut,
        message,
        durationMs,
        cause: toSafeNetworkCause(err),
      };
    } finally {
      deadline?.clear();
    }
  }

  /**
   * The outcome event of an attempt, called once the caller knows whether it is retried. Built only
   * when onHttpEvent is given: most clients have no listener, and an event object per attempt is
   * garbage the hot path does not need.
   */
  emitOutcome(method: string, path: string, attempt: number, res: TransportResult, willRetry: boolean): void {
    if (this.options.onHttpEvent !== null)
      notifyListener(this.options.onHttpEvent, toOutcomeEvent(method, path, attempt, res, willRetry));
  }
}
