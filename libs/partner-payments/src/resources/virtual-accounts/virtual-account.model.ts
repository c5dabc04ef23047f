import { canonicalPartnerStatus } from '../shared/status.util';
import type { PartnerOpenString } from '../shared/common.model';
import type { PartnerMetadata } from '../shared/metadata.model';

/**
 * The status vocabulary depends on the API version (evidence §5 [D state-machines]): 2026-04-14
 * `rfi`, `approved` (covers activating and active), `declined`, `deactivated`; 2026-06-01 `pending`,
 * `activating`, `active`, `failed`, `deactivated`; `frozen` (blocks payouts) on both.
 */
export type PartnerVirtualAccountStatus = PartnerOpenString<
  'rfi' | 'approved' | 'declined' | 'deactivated' | 'pending' | 'activating' | 'active' | 'failed' | 'frozen'
>;

/** POST /v1/virtual-accounts body (provider-facts "Virtual accounts and deposits"). */
export interface CreatePartnerVirtualAccountInput {
  user_id: string;
  /** `US_BANK` (the default) or `MX_SPEI` (evidence §11 N31). */
  type?: 'US_BANK' | 'MX_SPEI';
  /** One of the client's authorizedBanks (spec 2.4); required for US_BANK (evidence §11 N32). */
  bank?: string;
  /** `fiat` (default) or `crypto` (evidence §5). */
  mode?: string;
  /** Where a crypto account's funds go: `{ currency, network, address }`, required with mode `crypto` (checked before any call). */
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

/**
 * Whether money sent to this account lands (evidence §5 [D known-limitations]): a real account
 * number (non-null, not the ACT placeholder) on an account that is not failed, declined,
 * deactivated or frozen. `approved` alone does not mean funds-ready.
 */
export function canReceiveFunds(va: Pick<PartnerVirtualAccount, 'account_number' | 'status'>): boolean {
  const status = typeof va.status === 'string' ? va.status.toLowerCase() : '';
  return isVirtualAccountUsable(va) && !['failed', 'declined', 'deactivated', 'frozen'].includes(status);
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

/** GET /v1/virtual-accounts query (evidence §5 [T2]: the filters its client sends). */
export interface ListPartnerVirtualAccountsQuery {
  status?: string;
  user_id?: string;
  type?: string;
  mode?: string;
  search?: string;
  /** 1 to 100 (above it the partner answers a bare 500, evidence §2 [T3r DRIFT-10]). */
  limit?: number;
  /**
   * Rows to skip. The list pages by offset like the users list (evidence §5 [T2s Common.cs]);
   * there is no `page`.
   */
  offset?: number;
}

/** A page-numbered list (`{data, pagination:{page, limit, total, total_pages}}`): deposits of every account. */
export interface PartnerNumberedPage<T> {
  data: T[];
  page: number;
  limit: number | null;
  total: number | null;
  totalPages: number | null;
  hasMore: boolean;
}

/** GET /v1/virtual-accounts/{id}/balance once the account is active (evidence §5). */
export interface PartnerVirtualAccountBalance {
  available_balance: string;
  currency?: string;
  [key: string]: unknown;
}

/** GET /v1/virtual-accounts/deposits query (evidence §5 [T1 REVISION-DOCS §3.3]: paged by `page`). */
export interface ListAllPartnerDepositsQuery {
  page?: number;
  limit?: number;
  status?: string;
  virtual_account_id?: string;
  user_id?: string;
}

/** POST /v1/virtual-accounts/{id}/liquidation-address body (evidence §5 [T2][D for-ai-agents]). */
export interface CreatePartnerLiquidationAddressInput {
  network: string;
  token: string;
  recipient_id: string;
}

/** POST /v1/virtual-accounts/{id}/simulate-deposit body (sandbox only; evidence open question 8). */
export interface SimulatePartnerDepositInput {
  /** Decimal string, up to 2 decimals; `"11"` is the partner's magic value for a refund. */
  amount: string;
  currency?: 'USD';
}
