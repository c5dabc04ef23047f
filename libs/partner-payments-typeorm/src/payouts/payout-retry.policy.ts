/** Backoff of a failed re-send: 1 min doubling per attempt, capped at 1 h. Pure. */
const BASE_MS = 60_000;
const CAP_MS = 3_600_000;

export function payoutRetryAt(attempts: number, now: Date): Date {
  const delay = Math.min(CAP_MS, BASE_MS * 2 ** Math.max(0, Math.min(attempts, 32) - 1));
  return new Date(now.getTime() + delay);
}
