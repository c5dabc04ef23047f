import { canonicalPartnerStatus } from './status.util';
import type { PartnerOpenString } from './common.model';
import type { PartnerMetadata } from './metadata.model';

/** provider-facts (2026-04-14): rfi, approved, declined, deactivated. */
export type PartnerVirtualAccountStatus = PartnerOpenString<'rfi' | 'approved' | 'declined' | 'deactivated'>;

/** POST /v1/virtual-accounts body (provider-facts "Virtual accounts and deposits"). */
export interface CreatePartnerVirtualAccountInput {
  user_id: string;
  type?: PartnerOpenString<'US_BANK'>;
  /** One of the client's authorizedBanks (spec 2.4). */
  bank: string;
  mode?: string;
  destination?: Record<string, unknown>;
  metadata?: PartnerMetadata;
  [key: string]: unknown;
}

/** A virtual account; fields beyond these are "not shown" (spec 2.5). */
export interface PartnerVirtualAccount {
  virtual_account_id?: string;
  id?: string;
  user_id?: string;
  status?: PartnerVirtualAccountStatus;
  bank?: string;
  account_number?: string | null;
  routing_number?: string | null;
  metadata?: PartnerMetadata;
  [key: string]: unknown;
}

/** provider-facts: the account number shown while the bank account is not open yet. */
export const PENDING_ACCOUNT_NUMBER = 'PENDING-ACT-ACCOUNT';

/** Funds are usable only once account_number is non-null and not the placeholder (provider-facts). */
export function isVirtualAccountUsable(va: Pick<PartnerVirtualAccount, 'account_number'>): boolean {
  return (
    typeof va.account_number === 'string' &&
    va.account_number !== '' &&
    va.account_number !== PENDING_ACCOUNT_NUMBER
  );
}

/** The id, whichever field carries it. */
export function virtualAccountId(va: PartnerVirtualAccount): string | null {
  return (va.virtual_account_id ?? va.id ?? null) as string | null;
}

/** provider-facts: PENDING, COMPLETED, FAILED, REFUNDED, KYT_PENDING, KYT_REJECTED. */
export type PartnerDepositStatus = PartnerOpenString<
  'PENDING' | 'COMPLETED' | 'FAILED' | 'REFUNDED' | 'KYT_PENDING' | 'KYT_REJECTED'
>;

/** Only FAILED and REFUNDED are final; KYT_REJECTED can still be released (provider-facts). */
export function isTerminalDepositStatus(status: string | null | undefined): boolean {
  return typeof status === 'string' && ['FAILED', 'REFUNDED'].includes(canonicalPartnerStatus(status) ?? '');
}

/** GET /v1/virtual-accounts/{id}/deposits/{depositId}; shape "not shown" beyond spec 6.4.3. */
export interface PartnerDeposit {
  deposit_id?: string;
  virtual_account_id?: string;
  user_id?: string;
  status?: PartnerDepositStatus;
  amount?: string;
  currency?: string;
  source?: { payment_rail?: string; sender_name?: string; [key: string]: unknown };
  [key: string]: unknown;
}

/** One entry of GET /v1/virtual-accounts/{id}/liquidation-address (provider-facts: a bare array). */
export interface PartnerLiquidationAddress {
  id: string;
  virtual_account_id: string;
  status: string;
  network: string;
  token: string;
  address: string;
  recipient?: Record<string, unknown>;
  wallet?: Record<string, unknown>;
  markup?: unknown;
  created_at: string;
  updated_at: string;
  [key: string]: unknown;
}
