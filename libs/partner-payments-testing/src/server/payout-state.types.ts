/** In-memory records of the simulated partner's payouts and quotes (spec 3.4). */
import type { PaymentRail } from './state.types';

/** spec 3.4 / provider-facts: the payout resource status is UPPERCASE. */
export type PayoutStatus =
  'CREATED' | 'PENDING' | 'PROCESSING' | 'COMPLETED' | 'FAILED' | 'CANCELLED' | 'IN_REVIEW' | 'KYT_PENDING';

/**
 * A quote a preview made with `create_quote` (only with the opt-in fee profile: the partner's
 * sandbox makes none, evidence §6 [T3r DRIFT-45]). What an execute naming it must match.
 */
export interface QuoteRecord {
  quote_id: string;
  clientUuid: string;
  virtual_account_id: string;
  /** The recipient the preview named, or null when it named an account type. */
  recipient_id: string | null;
  account_type: string;
  /** The gross amount priced (what the execute's `amount` carries, fees included), in cents. */
  grossCents: bigint;
  /** The fee and what reaches the recipient, as the preview answered them: the payout carries them. */
  feeCents: bigint;
  netCents: bigint;
  expiresAt: number;
  /** The payout that used it: a quote prices one payout. */
  usedBy: string | null;
}

export interface PayoutRecord {
  payout_id: string;
  clientUuid: string;
  user_id: string;
  virtual_account_id: string;
  recipient_id: string;
  status: PayoutStatus;
  from_amount: string;
  from_currency: string;
  to_amount: string;
  to_currency: string;
  fee: string;
  payment_method: PaymentRail;
  reference_number: string | null;
  error_code: string | null;
  quote_id: string | null;
  memo: string | null;
  /** evidence §6 [D get-a-payout]: `{event_id, status, message, created_at}` per transition. */
  events: { event_id: string; status: PayoutStatus; message: string; created_at: string }[];
  created_at: string;
  updated_at: string;
}
