/**
 * When a failed webhook entry is tried again. Pure, so it is tested without a clock.
 * Deliveries are never retried by the partner on 2026-04-14 (spec 6.1.4): our own redelivery is
 * the only second chance, so it backs off (a bug fix may need a deploy) and then stops at a limit,
 * leaving the entry visible as 'dead' instead of retrying forever.
 */
export interface InboxRetryOptions {
  /** Attempts (processing runs) before an entry is dead. Default 5. */
  maxAttempts: number;
  /** Delay after the first failure. Default 30 s. */
  baseDelayMs: number;
  /** Upper bound of the delay. Default 1 h. */
  maxDelayMs: number;
}

export const DEFAULT_INBOX_RETRY: InboxRetryOptions = {
  maxAttempts: 5,
  baseDelayMs: 30_000,
  maxDelayMs: 3_600_000,
};

export type InboxRetryDecision =
  { state: 'failed'; nextAttemptAt: Date } | { state: 'dead'; nextAttemptAt: null };

/** `attempts` counts every failed run including this one (1 after the first failure). */
export function decideInboxRetry(
  attempts: number,
  now: Date,
  options: InboxRetryOptions = DEFAULT_INBOX_RETRY,
): InboxRetryDecision {
  if (attempts >= options.maxAttempts) return { state: 'dead', nextAttemptAt: null };
  const delay = Math.min(options.maxDelayMs, options.baseDelayMs * 2 ** Math.max(0, attempts - 1));
  return { state: 'failed', nextAttemptAt: new Date(now.getTime() + delay) };
}
