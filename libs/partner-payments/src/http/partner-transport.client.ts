import type { LoggerService } from '@nestjs/common';
import { Subject, type Observable } from 'rxjs';
import type { ResolvedPartnerOptions } from '../options-resolver.util';
import { toOutcomeEvent } from './attempt.util';
import type {
  PartnerHttpEvent,
  ReadyTransportRequest,
  TransportRequest,
  TransportResult,
} from './http.types';
import { reportRateLimitWait, traceAttempt } from '../observability/http-instrumentation.util';
import { partnerRouteTemplate } from '../observability/route-template.util';
import { PartnerRateLimiter } from './rate-limiter.policy';
import type { Readable } from 'node:stream';
import { guardResponseStream } from './stream-body.util';
import { joinUrl } from './url.util';

/**
 * The part of an axios instance the transport uses. The module passes HttpService.axiosRef
 * (@nestjs/axios); a structural type keeps this file free of runtime framework imports.
 */
export interface PartnerAxiosLike {
  request(config: {
    method: string;
    url: string;
    headers: Record<string, string>;
    data?: unknown;
    responseType?: 'json' | 'stream';
    timeout: number;
    signal?: AbortSignal;
    validateStatus: (status: number) => boolean;
    maxRedirects: number;
    maxBodyLength: number;
    maxContentLength: number;
    transitional: { clarifyTimeoutError: boolean; silentJSONParsing: boolean; forcedJSONParsing: boolean };
    proxy?: false;
  }): Promise<{ status: number; headers: unknown; data: unknown }>;
  /** axios's instance defaults: a proxy or agents the host configured there are kept. */
  defaults?: { proxy?: unknown; httpAgent?: unknown; httpsAgent?: unknown };
}

/** The variables axios (lower case first, then upper) and Node's own env-proxy support read. */
const PROXY_VARIABLES = ['http_proxy', 'https_proxy', 'all_proxy'];

/**
 * Whether a request may be sent with `proxy: false`, i.e. directly, and be what axios would have
 * done anyway. Without it axios looks up the proxy variables in process.env on every request, a
 * cost on the hot path of every call (bench/README.md). Decided when the client is built, so only
 * when nothing could send through a proxy: no proxy variable set (either case), no `proxy` on the
 * axios instance's defaults, and no agent there built with Node's `proxyEnv`. A process that sets
 * HTTP_PROXY after building the client must build it again (docs/nestjs/transport.md, "HTTP proxies").
 */
export function sendsDirectWithoutLookup(
  axiosDefaults: PartnerAxiosLike['defaults'],
  env: NodeJS.ProcessEnv = process.env,
): boolean {
  for (const name of PROXY_VARIABLES) if (env[name] || env[name.toUpperCase()]) return false;
  if (axiosDefaults?.proxy !== undefined) return false;
  const usesProxyEnv = (agent: unknown): boolean =>
    (agent as { options?: { proxyEnv?: unknown } } | undefined)?.options?.proxyEnv != null;
  return !usesProxyEnv(axiosDefaults?.httpAgent) && !usesProxyEnv(axiosDefaults?.httpsAgent);
}

const REQUEST_ID_HEADERS = [
  'x-request-id',
  'request-id',
  'x-correlation-id',
  'x-amzn-requestid',
  'x-trace-id',
];

/** Reads at most 64 KiB of a stream as text (then JSON when it parses); the rest is discarded. */
async function readSmallBody(body: unknown): Promise<unknown> {
  if (!body || typeof (body as AsyncIterable<unknown>)[Symbol.asyncIterator] !== 'function') return body;
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of body as AsyncIterable<Buffer | string>) {
    const b = Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk);
    if (size < 65_536) chunks.push(b.subarray(0, 65_536 - size));
    size += b.length;
  }
  const text = Buffer.concat(chunks).toString('utf8');
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

/**
 * A copy of a transport failure that is safe to log: name, message, code, errno, syscall, stack and
 * the same of its causes. An axios error carries its request config (x-api-key and the
 * Authorization header) and the socket's request object; handing it on as an error's `cause` would
 * let `console.error(err)` or a logger's inspect print the bearer token and api key, and logs
 * never carry credentials.
 */
export function toSafeNetworkCause(err: unknown, depth = 0): Error {
  if (!(err instanceof Error)) return new Error(String(err));
  const safe = new Error(err.message);
  safe.name = err.name;
  safe.stack = err.stack;
  const src = err as Error & { code?: unknown; errno?: unknown; syscall?: unknown; cause?: unknown };
  const extra: Record<string, unknown> = {};
  for (const key of ['code', 'errno', 'syscall'] as const) {
    if (typeof src[key] === 'string' || typeof src[key] === 'number') extra[key] = src[key];
  }
  Object.assign(safe, extra);
  if (src.cause !== undefined && depth < 3) {
    Object.defineProperty(safe, 'cause', {
      value: toSafeNetworkCause(src.cause, depth + 1),
      enumerable: false,
      configurable: true,
      writable: true,
    });
  }
  return safe;
}

export function pickRequestId(headers: Record<string, string>): string | null {
  for (const h of REQUEST_ID_HEADERS) if (headers[h]) return headers[h];
  return null;
}

/** Statuses are the client's business: a 4xx/5xx must not throw inside axios. */
const ACCEPT_EVERY_STATUS = (): boolean => true;
/** Node's timers fire at once above this (a 32-bit signed ms count). */
const MAX_TIMER_MS = 2_147_483_647;
/** timeouts as ETIMEDOUT, not ECONNABORTED; one shared object, not one per call. */
const TRANSITIONAL = { clarifyTimeoutError: true, silentJSONParsing: true, forcedJSONParsing: true };

/**
 * One attempt over the wire, on the axios instance of @nestjs/axios's HttpService.
 * Never throws for an HTTP status or a network failure: it reports them, the client decides.
 * Shared by PartnerHttpClient and PartnerTokenManager so the rate limiter and the events see /auth too.
 * Provided by PartnerPaymentsModule through a factory provider (inject it by class); it carries no
 * decorators so the core runs, and is unit-tested, without Nest.
 */
export class PartnerTransport {
  private readonly limiter: PartnerRateLimiter | null;
  private readonly subject = new Subject<PartnerHttpEvent>();
  /** Lifecycle events of every attempt (no bodies, no headers, no secrets). */
  readonly events$: Observable<PartnerHttpEvent> = this.subject.asObservable();

  /** apiBaseUrl without a trailing slash; paths arrive with one leading slash (joinUrl, once). */
  private readonly baseUrl: string;
  /** `false` when no proxy can apply (sendsDirectWithoutLookup), else undefined: axios decides. */
  private readonly proxy: false | undefined;

  constructor(
    private readonly axios: PartnerAxiosLike,
    private readonly options: ResolvedPartnerOptions,
    private readonly logger: LoggerService = options.logger,
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
            this.logger,
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

  private sendWithHeaders(req: TransportRequest, waitMs: number): Promise<TransportResult> {
    if (typeof req.headers !== 'function') return this.sendTraced(req as ReadyTransportRequest, waitMs);
    let built: ReturnType<typeof req.headers>;
    try {
      built = req.headers();
    } catch (err) {
      return Promise.reject(err);
    }
    if (built instanceof Promise)
      return built.then((headers) => this.sendTraced({ ...req, headers }, waitMs));
    return this.sendTraced({ ...req, headers: built }, waitMs);
  }

  private sendTraced(ready: ReadyTransportRequest, waitMs: number): Promise<TransportResult> {
    return traceAttempt(ready, waitMs, () => this.sendOnce(ready));
  }

  private async sendOnce(req: ReadyTransportRequest): Promise<TransportResult> {
    // axios's `timeout` in Node is an idle timeout (ClientRequest.setTimeout): it fires only after
    // that long without socket activity, so a partner or gateway trickling a byte now and then would hold
    // the call, and its limiter slot, far past timeoutMs. This is the hard deadline the option
    // documents ("per-attempt timeout"): connect, send and the whole answer.
    // For a streamed 2xx (downloads) it covers the attempt up to the response head; the body then
    // has its own deadlines (guardResponseStream). Cleared when the attempt ends, so no timer outlives a call.
    // An upload keeps the idle timeout alone (TransportRequest.idleTimeoutOnly): its body takes as
    // long as the link needs.
    const deadline = new AbortController();
    const timer = req.idleTimeoutOnly
      ? undefined
      : setTimeout(() => deadline.abort(), Math.min(req.timeoutMs, MAX_TIMER_MS));
    const config: Parameters<PartnerAxiosLike['request']>[0] = {
      method: req.method,
      url: `${this.baseUrl}${req.path}${req.queryString}`,
      headers: req.headers,
      data: req.data,
      responseType: req.responseType ?? 'json',
      // The deadline above ends the attempt first, so axios's own idle timer (a socket timer
      // re-armed on every chunk) is needed only where there is no deadline: uploads.
      timeout: req.idleTimeoutOnly ? req.timeoutMs : 0,
      signal: deadline.signal,
      validateStatus: ACCEPT_EVERY_STATUS,
      // Redirects would re-send x-api-key and the bearer token to wherever Location points.
      maxRedirects: 0,
      // Uploads stream up to 20 × 30 MB (spec 8); the per-file limits are checked before I/O.
      maxBodyLength: Infinity,
      maxContentLength: 64 * 1024 * 1024,
      transitional: TRANSITIONAL,
      proxy: this.proxy,
    };
    if (this.listened())
      this.emit({
        type: 'request',
        method: req.method,
        path: req.path,
        route: partnerRouteTemplate(req.path),
        attempt: req.attempt,
      });
    const started = performance.now();
    const elapsed = (): number => Math.floor(performance.now() - started);
    try {
      const res = await this.axios.request(config);
      const headers: Record<string, string> = {};
      const received = (res.headers ?? {}) as Record<string, unknown>;
      for (const k of Object.keys(received)) {
        const v = received[k];
        if (v !== undefined && v !== null)
          headers[k.toLowerCase()] = Array.isArray(v) ? v.join(', ') : String(v);
      }
      const requestId = pickRequestId(headers);
      let data = res.data;
      // An error answer to a download is small: read it so the error parser sees the body.
      if (req.responseType === 'stream' && (res.status < 200 || res.status >= 300))
        data = await readSmallBody(data);
      else if (req.responseType === 'stream') data = guardResponseStream(data as Readable, req);
      const durationMs = elapsed();
      this.logger.debug?.(
        `${req.method} ${req.path} → ${res.status} in ${durationMs} ms (attempt ${req.attempt})`,
      );
      return { kind: 'response', status: res.status, headers, data, requestId, durationMs };
    } catch (err: unknown) {
      const durationMs = elapsed();
      // axios errors and Node errno errors (e.g. a file stream failing) both carry `code`.
      const code = (err as { code?: unknown } | null)?.code;
      // The deadline's abort surfaces as axios's ERR_CANCELED: report it as the timeout it is, so
      // the retry policy and the error class treat it as the idle timeout (ETIMEDOUT): retried on
      // GETs and keyed writes, never on a keyless write that may have reached the partner.
      const pastDeadline = deadline.signal.aborted;
      const errorCode = pastDeadline ? 'ETIMEDOUT' : typeof code === 'string' ? code : undefined;
      const timedOut = errorCode === 'ETIMEDOUT' || errorCode === 'ECONNABORTED';
      const message = pastDeadline
        ? `no complete answer within ${req.timeoutMs} ms`
        : err instanceof Error
          ? err.message
          : String(err);
      this.logger.debug?.(
        `${req.method} ${req.path} failed: ${errorCode ?? 'error'} in ${durationMs} ms (attempt ${req.attempt})`,
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
      clearTimeout(timer);
    }
  }

  /**
   * The outcome event of an attempt, called once the caller knows whether it is retried. Built only
   * when someone listens (events$ or onHttpEvent): most calls have no listener, and two event
   * objects per call are garbage the hot path does not need.
   */
  emitOutcome(method: string, path: string, attempt: number, res: TransportResult, willRetry: boolean): void {
    if (this.listened()) this.emit(toOutcomeEvent(method, path, attempt, res, willRetry));
  }

  private listened(): boolean {
    return this.subject.observed || this.options.onHttpEvent !== null;
  }

  /**
   * Publishes an event the caller built whole, route template included (bounded labels, no ids);
   * callers build it only when listened() says someone listens.
   */
  private emit(event: PartnerHttpEvent): void {
    if (this.subject.observed) this.subject.next(event);
    if (this.options.onHttpEvent) {
      try {
        this.options.onHttpEvent(event);
      } catch {
        // A listener's bug must not fail a payment call.
      }
    }
  }
}
