import type { LoggerService } from '@nestjs/common';
import type { PartnerInboxStore } from './webhooks/inbox/inbox.store';
import type { PartnerHttpEvent } from './http/http.types';
import type { PartnerRateBudget } from './http/rate-limiter.policy';
import type {
  PartnerRateLimitWaitEvent,
  PartnerTokenEvent,
  PartnerWebhookObservation,
} from './observability/hooks.util';

/** Receives request lifecycle events (no bodies, no secrets). Must not throw; errors are swallowed. */
export type PartnerHttpEventListener = (event: PartnerHttpEvent) => void;

/** Backoff between retries: exponential with jitter, between a floor and a cap. */
export interface PartnerRetryOptions {
  /** Delay before the first retry, doubled on each further retry (before jitter). Default 500. */
  initialDelayMs?: number;
  /** Cap on the computed delay. Default 8_000. */
  maxDelayMs?: number;
  /** Floor on the delay after jitter. Default 100. */
  minDelayMs?: number;
  /** A server Retry-After longer than this is cut to it. Default 30_000. */
  maxRetryAfterMs?: number;
}

export type PartnerEnvironment = 'sandbox' | 'production';

/** Which API areas may be sent a version other than `apiVersion`. */
export interface PartnerApiVersionOverrides {
  /** RFI calls. Default '2026-06-01': the RFI routes exist only under that version. */
  rfis?: string;
}

export interface PartnerRateLimitOptions {
  /** Sustained requests per second across all calls of this client. Default 20 (provider-facts). */
  requestsPerSecond: number;
  /** Bucket size: how many calls may go at once before the rate applies. Default 50. */
  burst: number;
  /**
   * Where the tokens live. Default: this process's memory. The partner's limit is per account
   * (evidence §1), so an app running several replicas passes a store they share (e.g. its
   * database: see the reference app's `DatabaseRateBudget`); if it fails, calls are paced by an
   * in-process bucket and a warning is logged.
   */
  budget?: PartnerRateBudget;
}

export interface PartnerWebhookOptions {
  /**
   * Webhook signing secrets, case-sensitive. Several are accepted during a rotation
   * (the old secret keeps signing for about a minute). Required to receive webhooks.
   */
  secrets: string[];
  /**
   * false: the ready-made route answers 404. Default true. Must be a boolean (a string such as
   * 'false' from an environment variable fails the boot).
   */
  controller?: boolean;
  /** Path of the ready-made controller. Default '/webhooks/partner'. */
  path?: string;
  /** Largest accepted body in bytes; larger gets 413. Default 1_048_576 (1 MB). */
  maxBodyBytes?: number;
  /**
   * Backpressure of processing in this process. How deliveries share a commit and entries a
   * processing transaction is the inbox store's own (@partner-payments/typeorm: `inbox` options).
   */
  batching?: PartnerWebhookBatchingOptions;
}

export interface PartnerWebhookBatchingOptions {
  /**
   * Backpressure, so the inbox lag stays bounded at the ingest rate. When this many
   * recorded events are waiting for or in processing in this process (processPending runs'
   * included), a new delivery waits for room before it is recorded, up to `maxBacklogWaitMs`, so
   * intake slows to what the handlers keep up with instead of a backlog (and its memory) growing
   * without end. A soft bound: the deliveries let through at once may pass it by a few. Default 512.
   */
  maxBacklog?: number;
  /**
   * Longest a delivery waits for room (ms); then it is recorded and answered anyway (the partner
   * gives up after 30 s [T1 REVISION-DOCS §2.4], and spec 6.1.4 does not retry). 0: never wait.
   * Default 5000.
   */
  maxBacklogWaitMs?: number;
}

export interface PartnerPaymentsModuleOptions {
  /**
   * 'sandbox' joins every path onto `{baseUrl}/sandbox` (spec 1: the sandbox base is a path
   * prefix), 'production' onto `{baseUrl}`. Default 'sandbox'.
   */
  environment?: PartnerEnvironment;
  /** The partner's base address `{base_url}` (spec 1). Required. May itself carry a path prefix. */
  baseUrl: string;
  /** Sent as x-api-key on every request, /auth included. Required. Never logged. */
  apiKey: string;
  /** Credential pair for POST /auth. Required. Never logged. */
  clientId: string;
  /** Credential pair for POST /auth. Required. Never logged. */
  password: string;
  /** Your own client UUID, for GET /v1/clients/{client_uuid}. Optional; that call fails locally without it. */
  clientUuid?: string;
  /** X-Api-Version sent by default. Default '2026-04-14'. */
  apiVersion?: string;
  /** Per-area versions. Default { rfis: '2026-06-01' }. */
  apiVersionOverrides?: PartnerApiVersionOverrides;
  /**
   * 'always': send X-Api-Version on every call. 'until-pinned': stop sending it once the module
   * knows the account is pinned to `apiVersion` (after a successful upgrade, or when the host app
   * tells it so). Calls that require it (liquidation addresses) and RFI calls always send it.
   * Default 'always'.
   */
  sendVersionHeader?: 'always' | 'until-pinned';
  /**
   * Per-attempt timeout in milliseconds, a total deadline: connecting, sending and reading the
   * whole answer, not only a gap without socket activity, so a partner trickling bytes cannot hold
   * a call (or its rate-limiter slot) past it. For a streamed download it covers the attempt up to
   * the answer's head, then bounds each wait for body bytes (the whole body has its own deadline,
   * `bodyTimeoutMs`, default 10 minutes). On an upload (multipart) it bounds each gap without progress instead: the
   * body takes as long as the link needs. A timed-out attempt is retried as a timeout:
   * GETs and de-duplicated writes yes, other writes no. Default 30_000.
   */
  timeoutMs?: number;
  /** Retries after the first attempt, for retryable failures only. Default 2. */
  maxRetries?: number;
  /** Backoff tuning. Defaults { initialDelayMs: 500, maxDelayMs: 8_000, minDelayMs: 100, maxRetryAfterMs: 30_000 }. */
  retry?: PartnerRetryOptions;
  /**
   * Called for every attempt's request/response/network error, for logging and metrics
   * (method, path, route template, status, durationMs, attempt). The one channel of these events:
   * nothing is built for them when it is not given. Must not throw; errors are swallowed. Default none.
   */
  onHttpEvent?: PartnerHttpEventListener;
  /**
   * Called when a token refresh (POST /auth with its retries) succeeds or fails, with its duration
   * and, on failure, whether the partner was unavailable or refused the credentials. For metrics
   * and alerts; never the token. Must not throw; errors are swallowed. Default none.
   */
  onTokenEvent?: (event: PartnerTokenEvent) => void;
  /**
   * Called when a call waited for the client-side rate limiter (1 ms or more), with the wait and the
   * route template. Must not throw; errors are swallowed. Default none.
   */
  onRateLimitWait?: (event: PartnerRateLimitWaitEvent) => void;
  /**
   * Called once per webhook delivery with its answer (accepted, duplicate, unknown, or refused with
   * the reason) and once per processing run of a stored event (processed, failed, skipped, with its
   * duration). Event name and id only, never the body or a signature. Must not throw; errors are
   * swallowed. Default none.
   */
  onWebhookEvent?: (event: PartnerWebhookObservation) => void;
  /**
   * How long answers of GET /v1/countries and GET /v1/banks are kept in memory, in milliseconds
   * (the lists rarely change). 0 turns the cache off. Default 86_400_000 (24 hours).
   */
  referenceDataCacheTtlMs?: number;
  /**
   * Refresh the bearer token when fewer than this many seconds remain (at most half its lifetime;
   * provider-facts: "refresh when less than 5 minutes remain"). The refresh runs in the background
   * while the held token has more than a safety margin left (30 s, at most half the skew), and is
   * not retried sooner than 30 s after a failure; calls wait for POST /auth only when no usable
   * token is held. Default 300.
   */
  tokenRefreshSkewSeconds?: number;
  /** Client-side token bucket; `false` turns it off. Default { requestsPerSecond: 20, burst: 50 }. */
  rateLimit?: PartnerRateLimitOptions | false;
  /** Logger for the module. Default: a Nest Logger with context 'PartnerPayments'. */
  logger?: LoggerService;
  /** Webhook receiving. Omit to receive no webhooks. */
  webhooks?: PartnerWebhookOptions;
  /**
   * Where received webhook events are recorded before they are acknowledged.
   * Default: the bounded in-memory store (fine for tests and small apps; not durable; the module
   * warns at boot when webhooks are configured without a store). A durable one on your TypeORM
   * DataSource: @partner-payments/typeorm's `PartnerTypeOrmInboxStore`; for another database,
   * implement `PartnerInboxStore` (docs/nestjs/inbox.md). Checked at boot: an instance with
   * record(), process() and drain() functions, not a Promise of one nor its class; else
   * PartnerConfigurationError.
   */
  inboxStore?: PartnerInboxStore;
}
