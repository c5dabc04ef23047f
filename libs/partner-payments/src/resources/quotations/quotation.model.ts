/**
 * Two routes the contract does not list, seen at the partner (evidence §11 N35, N36): a crypto
 * payout and a quotation. Their request fields are what the partner's refusals name; their success
 * answers are not recorded, so the answers keep every field the partner sends.
 */

/** POST /v1/payouts body: a crypto payout (evidence §11 N35). */
export interface CreatePartnerCryptoPayoutInput {
  user_id: string;
  recipient_id: string;
  /** A number, as the partner was seen to take it, or a decimal string. */
  amount: number | string;
  currency: string;
  network: string;
  /** The hash of the on-chain transfer. */
  txHash: string;
  /** A quote's id (POST /v1/quotations). */
  quote_id: string;
  [key: string]: unknown;
}

/** The answer to POST /v1/payouts: not recorded; `id` or `payout_id` when the partner sends one. */
export interface PartnerCryptoPayout {
  id?: string;
  payout_id?: string;
  status?: string;
  [key: string]: unknown;
}

/** POST /v1/quotations body (evidence §11 N36): a recipient or an account type, amounts in minor units. */
export interface CreatePartnerQuotationInput {
  user_id?: string;
  /** The recipient to quote for; or name `account_type` instead. */
  recipient_id?: string;
  account_type?: 'WIRE' | 'SWIFT' | 'WALLET' | 'ACH' | 'INSTANT_PAY';
  source_currency: string;
  destination_currency: string;
  /** Integer minor units (cents): 10000 is 100.00 [D llms.txt]. */
  amount: number;
  amount_type?: 'source' | 'destination';
  [key: string]: unknown;
}

/** A quotation: its `quote_id` can be redeemed later [D llms.txt]; the other fields are not recorded. */
export interface PartnerQuotation {
  quote_id?: string;
  [key: string]: unknown;
}
