/**
 * When a payout whose read failed is tried again: 30 s, 1 min, 2 min, ... capped at 30 min. Pure.
 * The pass moves on to the other payouts meanwhile (issue: "never stalls the batch").
 */
export function reconcileRetryAt(
  consecutiveFailures: number,
  now: Date,
  baseMs = 30_000,
  capMs = 1_800_000,
): Date {
  const delay = Math.min(capMs, baseMs * 2 ** Math.max(0, consecutiveFailures - 1));
  return new Date(now.getTime() + delay);
}
