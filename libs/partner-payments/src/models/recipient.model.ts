import type { PartnerAddress, PartnerOpenString } from './common.model';
import type { PartnerMetadata, PartnerMetadataFilter } from './metadata.model';

export type PartnerRecipientType = PartnerOpenString<'business' | 'individual'>;
export type PartnerAccountType = PartnerOpenString<'WIRE' | 'WALLET'>;

/** spec 2.3 account_details for WIRE. */
export interface PartnerWireAccountDetails {
  routing_number?: string;
  account_number?: string;
  type?: string;
  bank_name?: string;
  bank_address?: PartnerAddress;
  doc_type?: string;
  doc_number?: string;
  [key: string]: unknown;
}

/** spec 2.3 account_details for WALLET. */
export interface PartnerWalletAccountDetails {
  token?: string;
  address?: string;
  network?: string;
  [key: string]: unknown;
}

/** spec 2.3 Recipient, as the API sends it. */
export interface PartnerRecipient {
  recipient_id: string;
  type: PartnerRecipientType;
  company_name?: string;
  first_name?: string;
  last_name?: string;
  email?: string;
  address?: PartnerAddress;
  account_type: PartnerAccountType;
  account_details: PartnerWireAccountDetails | PartnerWalletAccountDetails | Record<string, unknown>;
  created_ts: string;
  updated_ts: string;
  metadata: PartnerMetadata;
  [key: string]: unknown;
}

/** POST /v1/recipients body (provider-facts "Recipients"). */
export interface CreatePartnerRecipientInput {
  user_id: string;
  type: PartnerRecipientType;
  first_name?: string;
  last_name?: string;
  company_name?: string;
  email?: string;
  address?: PartnerAddress;
  metadata?: PartnerMetadata;
  account: { account_type: PartnerAccountType; [field: string]: unknown };
  [key: string]: unknown;
}

/** spec 4.4 response. */
export interface PartnerRecipientList {
  recipients: PartnerRecipient[];
  total: number;
}

export interface ListPartnerRecipientsParams {
  /** spec 4.4: metadata[key]=value; several keys require all of them. */
  metadata?: PartnerMetadataFilter;
}

/** Last 4 characters only: logs never carry full account numbers (DESIGN). */
export function maskAccountNumber(accountNumber: string | null | undefined): string {
  if (!accountNumber) return '';
  return accountNumber.length <= 4 ? '****' : `****${accountNumber.slice(-4)}`;
}
