import { canonicalPartnerStatus } from '../shared/status.util';

/**
 * Payouts (spec 3.4, provider-facts "Payouts"). The create answer may carry `id` and a lowercase
 * status ('created'); the read carries `payout_id` and UPPERCASE: both normalise into PartnerPayout.
 */
export const PartnerPayoutStatus = {
  Created: 'CREATED',
  Pending: 'PENDING',
  Processing: 'PROCESSING',
  KytPending: 'KYT_PENDING',
  InReview: 'IN_REVIEW',
  Completed: 'COMPLETED',
  Failed: 'FAILED',
  Cancelled: 'CANCELLED',
} as const;
export type PartnerPayoutStatus = (typeof PartnerPayoutStatus)[keyof typeof PartnerPayoutStatus];

export interface PartnerPayout {
  payoutId: string;
  /** Canonical UPPERCASE (normalisePayoutStatus). */
  status: string;
  /** As received. */
  rawStatus: string;
  userId: string | null;
  recipientId: string | null;
  /** Decimal string (gross), from `amount` or `from_amount`. */
  amount: string | null;
  currency: string | null;
  /** The sending bank's reference (IMAD, trace number or UETR); null until sent (spec 6.4.4). */
  referenceNumber: string | null;
  /** Only on the resource, never in events (spec 6.4.4). */
  errorCode: string | null;
  /** GET and list: `api`, `payout` or `deposit` (evidence §6); null on the create answer. */
  origin: string | null;
  /** The lowercase rail of GET and list (`wire`, `ach`, `swift`, `wallet`, `instant_pay`, `spei`, evidence §6). */
  paymentMethod: string | null;
  /** The list row's account (evidence §6); GET does not carry it. */
  virtualAccountId: string | null;
  /** GET: the sender and recipient with account numbers masked to `****1234` (evidence §6). */
  sender: Record<string, unknown> | null;
  recipient: Record<string, unknown> | null;
  /** GET: the transitions, `{event_id, status, message, created_at}` (evidence §6); [] elsewhere. */
  events: PartnerPayoutEvent[];
  raw: Record<string, unknown>;
}

/** One entry of a payout's `events[]` (evidence §6 [D get-a-payout]). */
export interface PartnerPayoutEvent {
  event_id: string;
  status: string;
  message: string | null;
  created_at: string | null;
}

/** POST /v1/virtual-accounts/{id}/payout body (provider-facts). */
export interface CreatePartnerPayoutInput {
  /** Gross amount as a decimal string, e.g. "100.00" (never a float). */
  amount: string;
  currency: string;
  recipient_id: string;
  /** A quote from `preview` with `create_quote` (evidence §6). */
  quote_id?: string;
  /**
   * Your markup (evidence §6 [T1 ExecutePayoutService]: the body carries `quote_id` or
   * `client_markup`). An object: the preview refuses anything else ([T3r DRIFT-42]); its fields are
   * not recorded in the evidence, so agree them with the partner. Not with `quote_id`: the quote's
   * price already holds the markup given at preview (refused before any I/O).
   */
  client_markup?: Record<string, unknown>;
  /** The payment's purpose (evidence §6 [T1 ExecutePayoutService]; its values are not recorded). */
  nature_of_payment?: string;
  /** `memo` at most 255 characters, and `internal_notes` (evidence §6 [T1 ExecutePayoutService]). */
  extra_info?: { memo?: string; internal_notes?: string; [key: string]: unknown };
}

/** (weak) GET /v1/payouts query; unknown parameters answer 400, so only these are sent. */
export interface ListPartnerPayoutsParams {
  user_id?: string;
  status?: string;
  from_date?: string;
  to_date?: string;
  page?: number;
  limit?: number;
}

export interface PartnerPayoutPage {
  payouts: PartnerPayout[];
  total: number | null;
  page: number | null;
  limit: number | null;
  totalPages: number | null;
}

/**
 * The resource's word for a payout status (canonicalPartnerStatus, then spec 3.4: a bank return
 * resolves the resource to FAILED; flat events say 'returned', spec 6.4.6). Unknown values stay
 * as they are, canonical. '' for no status.
 */
export function normalisePayoutStatus(status: string | null | undefined): string {
  const s = canonicalPartnerStatus(status) ?? '';
  return s === 'RETURNED' ? PartnerPayoutStatus.Failed : s;
}

/**
 * Final for now. FAILED and CANCELLED are final; COMPLETED counts as final too, but a bank return
 * can still move a COMPLETED payout to FAILED (provider-facts), so keep listening after COMPLETED.
 */
export function isTerminalPayoutStatus(status: string | null | undefined): boolean {
  const s = normalisePayoutStatus(status);
  return (
    s === PartnerPayoutStatus.Completed ||
    s === PartnerPayoutStatus.Failed ||
    s === PartnerPayoutStatus.Cancelled
  );
}

/** Strictly final: nothing moves a payout out of these (provider-facts). */
export function isFinalPayoutStatus(status: string | null | undefined): boolean {
  const s = normalisePayoutStatus(status);
  return s === PartnerPayoutStatus.Failed || s === PartnerPayoutStatus.Cancelled;
}

/**
 * Progress order, to refuse backwards moves when events arrive late or re-ordered (spec 6.4.7: one
 * transition can produce two events; deliveries are independent). Payout transitions are not shown
 * (spec 3.4), so the holds share PROCESSING's rank: a hold may come before or during processing and
 * its resolution may go back to PROCESSING, and moves inside that group are applied. What the order
 * does guarantee: nothing in flight overwrites COMPLETED, FAILED or CANCELLED.
 */
const RANK: Record<string, number> = {
  CREATED: 0,
  PENDING: 1,
  PROCESSING: 2,
  KYT_PENDING: 2,
  IN_REVIEW: 2,
  COMPLETED: 3,
  FAILED: 4,
  CANCELLED: 4,
};

/** The rank of a status, or null for a status this version does not know. */
export function payoutStatusRank(status: string | null | undefined): number | null {
  return RANK[normalisePayoutStatus(status)] ?? null;
}

export type PartnerPayoutStatusChangeReason =
  'initial' | 'advance' | 'bank-return' | 'same' | 'stale' | 'final' | 'unknown-status';

export interface PartnerPayoutStatusChange {
  /** Whether the stored status should become `next`. */
  apply: boolean;
  /** The incoming status, canonical (payout.returned's 'returned' is the resource's FAILED). */
  next: string;
  reason: PartnerPayoutStatusChangeReason;
}

/**
 * Whether a status just heard about (webhook of either family, create answer, or a read of the
 * resource) may replace the stored one. Pure; the one rule every projection should use.
 * - FAILED and CANCELLED are final (provider-facts).
 * - COMPLETED moves only to FAILED: a bank return (spec 3.4, provider-facts); a cancellation or a
 *   late in-flight event does not undo a completion.
 * - otherwise only forward in RANK (or sideways inside PROCESSING / KYT_PENDING / IN_REVIEW).
 * - a status this version cannot place is not applied (it cannot be known to be forward); it still
 *   reaches event handlers, and a later read of the payout resource (spec 6.4.8) can place it.
 *
 * `options.previousStatus`: for an event, the status it says the payout left (a V2
 * previous_status; null for a granular payout.* event, which names none). Given, a sideways move is
 * applied only from that status, so the granular twin of an earlier transition (spec 6.4.7)
 * arriving after a hold does not undo the hold. Leave it out for a read of the resource.
 */
export function decidePayoutStatusChange(
  current: string | null | undefined,
  incoming: string,
  options: { previousStatus?: string | null } = {},
): PartnerPayoutStatusChange {
  const next = normalisePayoutStatus(incoming);
  const to = payoutStatusRank(next);
  if (to === null) return { apply: false, next, reason: 'unknown-status' };
  if (current === null || current === undefined || current.trim() === '') {
    return { apply: true, next, reason: 'initial' };
  }
  const from = normalisePayoutStatus(current);
  if (from === next) return { apply: false, next, reason: 'same' };
  if (isFinalPayoutStatus(from)) return { apply: false, next, reason: 'final' };
  if (from === PartnerPayoutStatus.Completed) {
    return next === PartnerPayoutStatus.Failed
      ? { apply: true, next, reason: 'bank-return' }
      : { apply: false, next, reason: 'stale' };
  }
  const fromRank = payoutStatusRank(from);
  const sidewaysUnconfirmed =
    options.previousStatus !== undefined && normalisePayoutStatus(options.previousStatus) !== from;
  if (to === fromRank && sidewaysUnconfirmed) return { apply: false, next, reason: 'stale' };
  // A stored status this version cannot place (written by an older one): any known status wins.
  if (fromRank === null || to >= fromRank) return { apply: true, next, reason: 'advance' };
  return { apply: false, next, reason: 'stale' };
}

/** decidePayoutStatusChange as a yes/no: true when `next` may be stored (a repeat counts as yes). */
export function canAdvancePayoutStatus(current: string | null | undefined, next: string): boolean {
  const change = decidePayoutStatusChange(current, next);
  return change.apply || change.reason === 'same';
}

/**
 * POST /v1/virtual-accounts/{id}/payout/preview body (evidence §6 [T1 ExecutePayoutService][T2
 * Payouts.cs]): `recipient_id` or `account_type`; a field sent as null is a type error at the
 * partner (DRIFT-43), so leave a field out rather than send null.
 */
export interface PreviewPartnerPayoutInput {
  /** Decimal string, up to 2 decimals (`^[0-9]+(\.[0-9]{1,2})?$`, DRIFT-41). */
  amount: string;
  recipient_id?: string;
  account_type?: string;
  /** true: `amount` is what the recipient gets, fees are added on top. */
  inverse_calculation?: boolean;
  /** Must be an object (DRIFT-42). */
  client_markup?: Record<string, unknown>;
  /** Also create a quote (answer carries quote_id and quote_expires_at: read it, 10 or 15 min). */
  create_quote?: boolean;
}

/** The preview's answer: fees and amounts before creating (evidence §6). */
export interface PartnerPayoutPreview {
  amount: string;
  currency: string;
  fees: Record<string, unknown>;
  recipient_amount: string;
  recipient_currency: string;
  quote_id?: string;
  quote_expires_at?: string;
  [key: string]: unknown;
}
