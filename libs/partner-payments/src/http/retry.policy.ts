/**
 * The retry decision, as a pure function (like stripe-node's _shouldRetry), so it is tested alone.
 * Auth (401) is not decided here: the client re-authenticates and re-sends once, separately.
 */
export type AttemptOutcome =
  | { kind: 'response'; status: number; retryAfterMs?: number | null }
  | { kind: 'network'; code: string | undefined };

export interface RetryDecisionInput {
  /** Attempts already made, the one that just failed included (1 after the first attempt). */
  attempt: number;
  maxRetries: number;
  method: string;
  /** Whether the request carries an Idempotency-Key (the server de-duplicates replays). */
  hasIdempotencyKey: boolean;
  outcome: AttemptOutcome;
}

export interface RetryDecision {
  retry: boolean;
  reason: string;
  /** The server's Retry-After, when it sent one (the backoff caps it). */
  retryAfterMs?: number | null;
}

/** Connection errors we retry: the request may not have reached the partner, and keys make a re-send safe. */
export const RETRYABLE_NETWORK_CODES: ReadonlySet<string> = new Set([
  'ECONNRESET',
  'EPIPE',
  'ETIMEDOUT',
  'ECONNREFUSED',
]);
/**
 * Failures that happen before a single byte reaches the server: replaying them cannot duplicate a write.
 * Every other network failure (reset, broken pipe, timeout) may come after the server got the request.
 */
export const NOT_SENT_NETWORK_CODES: ReadonlySet<string> = new Set(['ECONNREFUSED']);

const SAFE_METHODS: ReadonlySet<string> = new Set(['GET', 'HEAD', 'OPTIONS']);

export function isReplaySafe(method: string, hasIdempotencyKey: boolean): boolean {
  return hasIdempotencyKey || SAFE_METHODS.has(method.toUpperCase());
}

export function shouldRetry(input: RetryDecisionInput): RetryDecision {
  // Written so that a NaN maxRetries (e.g. Number(process.env.X) unset) means no retry, not retry forever.
  if (!(input.attempt <= input.maxRetries)) return { retry: false, reason: 'retries exhausted' };
  const replaySafe = isReplaySafe(input.method, input.hasIdempotencyKey);
  const o = input.outcome;
  if (o.kind === 'network') {
    const code = (o.code ?? '').toUpperCase();
    if (!RETRYABLE_NETWORK_CODES.has(code))
      return { retry: false, reason: `network error ${code || 'unknown'} is not retryable` };
    if (!replaySafe && !NOT_SENT_NETWORK_CODES.has(code)) {
      return {
        retry: false,
        reason: `${code} on a write without Idempotency-Key may have reached the server`,
      };
    }
    return { retry: true, reason: `network error ${code}` };
  }
  const s = o.status;
  if (s === 429) {
    // A rate-limited request is refused before it is processed (provider-facts: "429 above" the limit),
    // so even a write without a key is safe to send again.
    return { retry: true, reason: '429 rate limited', retryAfterMs: o.retryAfterMs ?? null };
  }
  if (s >= 500 && s <= 599) {
    if (!replaySafe)
      return { retry: false, reason: `${s} on a write without Idempotency-Key may have been applied` };
    return { retry: true, reason: `${s} server error`, retryAfterMs: o.retryAfterMs ?? null };
  }
  return { retry: false, reason: `${s} is not retryable` };
}

/**
 * Delay before retry number `retry` (1-based): exponential, "equal jitter" (half fixed, half random),
 * clamped to [minDelayMs, maxDelayMs]. A server Retry-After wins when longer, capped at maxRetryAfterMs.
 */
export interface BackoffOptions {
  initialDelayMs: number;
  maxDelayMs: number;
  minDelayMs: number;
  maxRetryAfterMs: number;
}

export function computeBackoffMs(
  retry: number,
  options: BackoffOptions,
  retryAfterMs?: number | null,
  random: () => number = Math.random,
): number {
  const exp = Math.min(options.maxDelayMs, options.initialDelayMs * 2 ** Math.max(0, retry - 1));
  const jittered = exp / 2 + random() * (exp / 2);
  const delay = Math.min(options.maxDelayMs, Math.max(options.minDelayMs, jittered));
  if (retryAfterMs !== undefined && retryAfterMs !== null && retryAfterMs > delay) {
    return Math.min(retryAfterMs, options.maxRetryAfterMs);
  }
  return Math.round(delay);
}

/** Retry-After: delta-seconds or an HTTP date (RFC 9110 10.2.3). Returns ms, or null when absent/unreadable. */
export function parseRetryAfter(value: string | undefined | null, now: number = Date.now()): number | null {
  if (value === undefined || value === null || value.trim() === '') return null;
  const v = value.trim();
  if (/^\d+(\.\d+)?$/.test(v)) return Math.round(Number(v) * 1000);
  const at = Date.parse(v);
  if (Number.isNaN(at)) return null;
  return Math.max(0, at - now);
}
