/**
 * Whether a payout status we just heard about may replace the one we store. Pure.
 *
 * Events can arrive late or re-ordered, from two families for one transition (spec 6.4.7), and
 * reconciliation reads the resource in between. So a status only moves forward:
 *   CREATED < PENDING < PROCESSING < KYT_PENDING < IN_REVIEW < COMPLETED, and FAILED/CANCELLED final.
 * Holds (KYT_PENDING, IN_REVIEW: spec 3.4, 6.4.7) sit between PROCESSING and the outcome.
 * One backward-looking move is real: a bank return turns COMPLETED into FAILED (spec 3.4,
 * provider-facts "A bank return moves even a COMPLETED payout to FAILED"). payout.returned
 * carries status 'returned' (spec 6.4.6); the resource shows FAILED, so RETURNED is stored as FAILED.
 * Statuses we do not know are never applied (provider-facts: unknown values are non-terminal,
 * and we cannot place them in the order).
 */
export const PAYOUT_STATUS_RANK: Readonly<Record<string, number>> = {
  CREATED: 0,
  PENDING: 1,
  PROCESSING: 2,
  KYT_PENDING: 3,
  IN_REVIEW: 4,
  COMPLETED: 5,
  FAILED: 6,
  CANCELLED: 6,
};

/** No further change is possible (provider-facts: CANCELLED and FAILED are final). */
export const FINAL_PAYOUT_STATUSES: readonly string[] = ['FAILED', 'CANCELLED'];

export type PayoutTransitionReason =
  | 'initial'
  | 'advance'
  | 'bank-return'
  | 'same'
  | 'stale'
  | 'final'
  | 'unknown-status';

export interface PayoutTransition {
  apply: boolean;
  /** The status to store when apply is true (RETURNED normalised to FAILED). */
  next: string;
  reason: PayoutTransitionReason;
}

/** Canonical UPPERCASE; payout.returned's 'returned' is the resource's FAILED. */
export function canonicalPayoutStatus(status: string): string {
  const upper = status.trim().toUpperCase();
  return upper === 'RETURNED' ? 'FAILED' : upper;
}

export function isKnownPayoutStatus(status: string): boolean {
  return canonicalPayoutStatus(status) in PAYOUT_STATUS_RANK;
}

export function isFinalPayoutStatus(status: string): boolean {
  return FINAL_PAYOUT_STATUSES.includes(canonicalPayoutStatus(status));
}

export function decidePayoutTransition(current: string | null, incoming: string): PayoutTransition {
  const next = canonicalPayoutStatus(incoming);
  if (!(next in PAYOUT_STATUS_RANK)) return { apply: false, next, reason: 'unknown-status' };
  if (current === null) return { apply: true, next, reason: 'initial' };
  const from = canonicalPayoutStatus(current);
  if (from === next) return { apply: false, next, reason: 'same' };
  if (FINAL_PAYOUT_STATUSES.includes(from)) return { apply: false, next, reason: 'final' };
  if (from === 'COMPLETED') {
    return next === 'FAILED' ? { apply: true, next, reason: 'bank-return' } : { apply: false, next, reason: 'stale' };
  }
  // A stored status we cannot place (written by an older version of this app): any known one wins.
  if (!(from in PAYOUT_STATUS_RANK)) return { apply: true, next, reason: 'advance' };
  return PAYOUT_STATUS_RANK[next] > PAYOUT_STATUS_RANK[from]
    ? { apply: true, next, reason: 'advance' }
    : { apply: false, next, reason: 'stale' };
}
