/**
 * A recipient's address and account details as the partner answers them (evidence §4): every
 * field optional, open to fields a newer partner adds.
 */

/** An address as read back (all optional). */
export interface PartnerRecipientAddress {
  street_name?: string;
  city?: string;
  state?: string;
  postal_code?: string;
  country?: string;
  [key: string]: unknown;
}

/**
 * account_details of the bank rails, unmasked (evidence §4 [T3r DRIFT-30]): never log them whole.
 * bank_address is an object on WIRE/SWIFT, a string on ACH/INSTANT_PAY.
 */
export interface PartnerBankAccountDetails {
  routing_number?: string;
  account_number?: string;
  type?: string;
  bank_name?: string;
  bank_address?: PartnerRecipientAddress | string;
  swift_code?: string;
  doc_type?: string;
  doc_number?: string;
  doc_country_code?: string;
  [key: string]: unknown;
}

/** spec 2.3 name for the WIRE details; the same shape as every bank rail's. */
export type PartnerWireAccountDetails = PartnerBankAccountDetails;

export interface PartnerSpeiAccountDetails {
  clabe?: string;
  doc_type?: string;
  doc_number?: string;
  doc_country_code?: string;
  [key: string]: unknown;
}

export interface PartnerWalletAccountDetails {
  token?: string;
  address?: string;
  network?: string;
  [key: string]: unknown;
}
