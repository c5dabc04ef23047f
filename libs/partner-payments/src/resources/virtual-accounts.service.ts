import { PartnerHttpClient } from '../http/partner-http.client';
import { encodePathSegment } from '../http/url.util';
import type { PartnerCallOptions } from '../models/common.model';
import type {
  CreatePartnerVirtualAccountInput,
  PartnerDeposit,
  PartnerLiquidationAddress,
  PartnerVirtualAccount,
} from '../models/virtual-account.model';
import { validateMetadata } from '../validation/metadata.validator';
import { asRecord, requireId, send } from './resource.util';

function unwrap(body: unknown, ...keys: string[]): Record<string, unknown> {
  const b = asRecord(body);
  for (const k of keys)
    if (typeof b[k] === 'object' && b[k] !== null && !Array.isArray(b[k])) return asRecord(b[k]);
  return b;
}

/** Virtual accounts and deposits (spec 4.6, 4.7, provider-facts "Virtual accounts and deposits"). */
export class PartnerVirtualAccountsService {
  constructor(private readonly http: PartnerHttpClient) {}

  /** POST /v1/virtual-accounts (Idempotency-Key). A second account for the same user and bank is a 409. */
  async create(
    input: CreatePartnerVirtualAccountInput,
    options?: PartnerCallOptions,
  ): Promise<PartnerVirtualAccount> {
    requireId(input?.user_id, 'user_id');
    requireId(input.bank, 'bank');
    if (input.metadata !== undefined) validateMetadata(input.metadata, 'metadata');
    const body = { type: 'US_BANK', ...input };
    const res = await send<unknown>(
      this.http,
      { method: 'POST', path: '/v1/virtual-accounts', body },
      options,
    );
    const va = asRecord(res.data);
    return (
      typeof va.virtual_account_id === 'string' || typeof va.id === 'string'
        ? va
        : unwrap(va, 'data', 'virtual_account')
    ) as PartnerVirtualAccount;
  }

  /** GET /v1/virtual-accounts/{id} (read back status and account_number; see isVirtualAccountUsable). */
  async get(virtualAccountId: string, options?: PartnerCallOptions): Promise<PartnerVirtualAccount> {
    const va = encodePathSegment(requireId(virtualAccountId, 'virtualAccountId'));
    const res = await send<unknown>(
      this.http,
      { method: 'GET', path: `/v1/virtual-accounts/${va}` },
      options,
    );
    const b = asRecord(res.data);
    return (
      typeof b.virtual_account_id === 'string' || typeof b.id === 'string'
        ? b
        : unwrap(b, 'data', 'virtual_account')
    ) as PartnerVirtualAccount;
  }

  /** GET /v1/virtual-accounts/{id}/deposits/{depositId}. */
  async getDeposit(
    virtualAccountId: string,
    depositId: string,
    options?: PartnerCallOptions,
  ): Promise<PartnerDeposit> {
    const va = encodePathSegment(requireId(virtualAccountId, 'virtualAccountId'));
    const dep = encodePathSegment(requireId(depositId, 'depositId'));
    const res = await send<unknown>(
      this.http,
      { method: 'GET', path: `/v1/virtual-accounts/${va}/deposits/${dep}` },
      options,
    );
    const b = asRecord(res.data);
    return (typeof b.deposit_id === 'string' ? b : unwrap(b, 'data', 'deposit')) as PartnerDeposit;
  }

  /**
   * GET /v1/virtual-accounts/{id}/liquidation-address: a bare array (provider-facts), [] when none.
   * spec 4.6: X-Api-Version is required on this call, so it is sent even once the account is pinned.
   */
  async listLiquidationAddresses(
    virtualAccountId: string,
    options?: PartnerCallOptions,
  ): Promise<PartnerLiquidationAddress[]> {
    const va = encodePathSegment(requireId(virtualAccountId, 'virtualAccountId'));
    const res = await send<unknown>(
      this.http,
      { method: 'GET', path: `/v1/virtual-accounts/${va}/liquidation-address`, versionHeaderRequired: true },
      options,
    );
    const b = res.data;
    const list = Array.isArray(b)
      ? b
      : ([asRecord(b).data, asRecord(b).liquidation_addresses].find(Array.isArray) ?? []);
    return list as PartnerLiquidationAddress[];
  }

  /** POST /v1/virtual-accounts/{id}/liquidation-address (Idempotency-Key, issue 2). Shape not shown: passed through. */
  async createLiquidationAddress(
    virtualAccountId: string,
    body: Record<string, unknown>,
    options?: PartnerCallOptions,
  ): Promise<PartnerLiquidationAddress> {
    const va = encodePathSegment(requireId(virtualAccountId, 'virtualAccountId'));
    const res = await send<unknown>(
      this.http,
      {
        method: 'POST',
        path: `/v1/virtual-accounts/${va}/liquidation-address`,
        body,
        versionHeaderRequired: true,
      },
      options,
    );
    return unwrap(res.data, 'data') as PartnerLiquidationAddress;
  }
}
