import type { Context } from '@opentelemetry/api';
import type FormData from 'form-data';

/** The methods `client.http.request` sends. */
export type PartnerHttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** Which version rule applies to a call (spec 9, provider-facts "Base address and versions"). */
export type PartnerApiArea = 'default' | 'rfis';

/** One query parameter's value: null and undefined are left out, an array repeats the name. */
export type PartnerQueryValue = string | number | boolean | null | undefined | ReadonlyArray<string | number>;
/** The query parameters of a call, appended to `path` (encoded by the client). */
export type PartnerQuery = Record<string, PartnerQueryValue>;

/** `client.http.request`'s argument: one logical call, whatever its retries and re-sends. */
export interface PartnerRequest {
  method: PartnerHttpMethod;
  /**
   * Path relative to the API base, starting with '/', e.g. '/v1/payouts/abc'. Encode ids yourself
   * (`encodeURIComponent(id)`; an id of `.` or `..` would change the path). A query written here is
   * kept and comes before `query`'s.
   */
  path: string;
  query?: PartnerQuery;
  /** JSON body. Ignored when `multipart` is set. */
  body?: unknown;
  /** Extra headers. They cannot replace x-api-key, Authorization, X-Api-Version or Idempotency-Key. */
  headers?: Record<string, string>;
  /**
   * Caller's key: always wins over the generated one. It makes a write retryable only on the routes
   * that de-duplicate on it (spec 4.7); elsewhere it is sent but the write is not retried once sent.
   */
  idempotencyKey?: string;
  /** Per-call X-Api-Version; always sent when given. */
  apiVersion?: string;
  area?: PartnerApiArea;
  /** Send X-Api-Version even when the account is pinned (spec 4.6: required on liquidation addresses). */
  versionHeaderRequired?: boolean;
  /** Per-attempt deadline in ms (> 0); the module's `timeoutMs` when left out. */
  timeoutMs?: number;
  /** Retries after the first attempt (an integer >= 0); the module's `maxRetries` when left out. */
  maxRetries?: number;
  /**
   * Builds the multipart body for one attempt. A factory, because a streamed body can be sent once:
   * a re-send (e.g. after a 401 re-auth) asks for a fresh one.
   */
  multipart?: () => FormData;
  /**
   * false when the body can be sent only once (a caller's stream): no retry and no re-send after a
   * 401, whatever the policy says. Default true.
   */
  bodyReplayable?: boolean;
  /**
   * 'stream': `data` is a Readable of the body (downloads). It fails with a PartnerTimeoutError
   * after `timeoutMs` without bytes while it is read, or when it has not ended `bodyTimeoutMs` after
   * the answer's head. Default 'json'.
   */
  responseType?: 'json' | 'stream';
  /** 'stream' only: the whole body's deadline from the answer's head. Default 600_000 (10 minutes); Infinity for none. */
  bodyTimeoutMs?: number;
}

/** What the client knows of a call besides its body. */
export interface PartnerResponseMeta {
  status: number;
  headers: Record<string, string>;
  requestId: string | null;
  /** The Idempotency-Key sent (same on every attempt), or null. */
  idempotencyKey: string | null;
  /** The X-Api-Version sent on the last attempt, or null when none was sent. */
  apiVersion: string | null;
  /** Attempts made, the successful one included (1 = no retry). */
  attempts: number;
}

/** A 2xx answer: its body (`data`, a Readable with `responseType: 'stream'`) and `meta`. */
export interface PartnerResponse<T> {
  data: T;
  meta: PartnerResponseMeta;
}

/**
 * `client.http`: any route the resources do not cover, with the module's headers, token, version
 * header, Idempotency-Key, retries, rate limit and typed errors (spec 4, 5, 7, 9).
 */
export interface PartnerHttp {
  /**
   * One logical call: `{ data, meta }` on a 2xx, else the partner's answer as a typed error.
   * `maxRetries` and `timeoutMs` are checked before any I/O (`PartnerLocalValidationError`).
   */
  request<T>(req: PartnerRequest): Promise<PartnerResponse<T>>;
}

/** A lifecycle event: one per attempt sent and one per outcome. Never bodies, headers or secrets. */
export interface PartnerHttpEvent {
  type: 'request' | 'response' | 'network-error';
  method: string;
  /** The path without the query string. */
  path: string;
  /** The path's route template, e.g. '/v1/payouts/{payout_id}': ids replaced, for metric labels. */
  route: string;
  attempt: number;
  /** HTTP status, for 'response'. */
  status?: number;
  /** Time from sending to the outcome, for 'response' and 'network-error'. */
  durationMs?: number;
  /** errno-like code, for 'network-error'. */
  errorCode?: string;
  requestId?: string | null;
  /** Whether the outcome will be retried (set on outcomes). */
  willRetry?: boolean;
}

/** One attempt as the transport sends it. */
export interface TransportRequest {
  method: PartnerHttpMethod;
  /** Path without query, starting with one '/' (appended to the base URL as is); also for events and logs. */
  path: string;
  /** Query string including '?', or ''. */
  queryString: string;
  /**
   * The request headers, or a function that builds them once the rate limiter let the attempt go:
   * an attempt can queue behind the limiter longer than the token's remaining life, and spec 5.7
   * answers an expired bearer token with a 401, so the token is read after the wait, not before.
   */
  headers: Record<string, string> | (() => Record<string, string> | Promise<Record<string, string>>);
  data?: unknown;
  /**
   * Deadline for the whole attempt in ms (connect, send, answer read whole), not only for a gap
   * without socket activity: a partner trickling bytes must not hold a call past it.
   */
  timeoutMs: number;
  /**
   * An upload: `timeoutMs` bounds each gap without socket activity, not the whole attempt. Sending
   * a large body takes as long as the link needs (30 MiB per file, 100 MiB a call), and a default
   * 30 s deadline over it would fail a healthy upload on a slow link (an upload is not retried).
   */
  idleTimeoutOnly?: boolean;
  attempt: number;
  /** 'stream': a 2xx body arrives as a Readable (downloads); error bodies are still read and parsed. */
  responseType?: 'json' | 'stream';
  /** 'stream' only: the whole body's deadline from the answer's head. Default 600_000 (10 minutes). */
  bodyTimeoutMs?: number;
  /** The trace context the attempt's span is started in; the active one when absent. */
  traceParent?: Context;
}

export type TransportResult =
  | {
      kind: 'response';
      status: number;
      headers: Record<string, string>;
      data: unknown;
      requestId: string | null;
      durationMs: number;
    }
  | {
      kind: 'network';
      code: string | undefined;
      timedOut: boolean;
      message: string;
      durationMs: number;
      cause: unknown;
    };
