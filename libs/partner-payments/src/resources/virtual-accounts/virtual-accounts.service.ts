import { encodePathSegment } from '../../http/url.util';
import { PartnerLocalValidationError, type PartnerFieldError } from '../../errors/partner.errors';
import { PartnerValidationError, PartnerVirtualAccountNotActiveError } from '../../errors/partner-api.errors';
import type { PartnerCallOptions, PartnerPage } from '../shared/common.model';
import { validateMetadata } from '../shared/metadata.rules';
import {
  asRecord,
  checkPageParams,
  iterateOffsetPages,
  requireId,
  send,
  toOffsetPage,
  unwrap,
} from '../shared/resource.util';
import { PartnerVirtualAccountDeposits } from './virtual-account-deposits.service';
import type {
  CreatePartnerLiquidationAddressInput,
  CreatePartnerVirtualAccountInput,
  ListPartnerVirtualAccountsQuery,
  PartnerLiquidationAddress,
  PartnerVirtualAccount,
  PartnerVirtualAccountBalance,
} from './virtual-account.model';

/** Virtual accounts and deposits (spec 4.6, 4.7, provider-facts "Virtual accounts and deposits"). */
export class PartnerVirtualAccountsService extends PartnerVirtualAccountDeposits {
  /**
   * POST /v1/virtual-accounts (Idempotency-Key). A second account for the same user and bank is a
   * 409; a user not VERIFIED is a 400 checked after the body (evidence §11 C6, N33).
   */
  async create(
    input: CreatePartnerVirtualAccountInput,
    options?: PartnerCallOptions,
  ): Promise<PartnerVirtualAccount> {
    requireId(input?.user_id, 'user_id');
    // evidence §11 N31-N33: `type` is US_BANK | MX_SPEI; only US_BANK needs a bank.
    const type = input.type ?? 'US_BANK';
    if (type !== 'US_BANK' && type !== 'MX_SPEI')
      throw new PartnerLocalValidationError([{ field: 'type', message: 'must be US_BANK or MX_SPEI' }]);
    if (type === 'US_BANK' || input.bank !== undefined) requireId(input.bank, 'bank');
    if (input.metadata !== undefined) validateMetadata(input.metadata, 'metadata');
    if (input.mode === 'crypto') {
      // evidence §5 [D create-a-virtual-account]: a crypto account names where its funds go.
      const destination = (input.destination ?? {}) as Record<string, unknown>;
      const errors: PartnerFieldError[] = [];
      for (const key of ['currency', 'network', 'address'] as const)
        if (typeof destination[key] !== 'string' || destination[key] === '')
          errors.push({ field: `destination.${key}`, message: 'is required for a crypto virtual account' });
      if (errors.length) throw new PartnerLocalValidationError(errors);
    }
    const body = { ...input, type };
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

  /**
   * POST /v1/virtual-accounts/{id}/liquidation-address `{network, token, recipient_id}` with an
   * Idempotency-Key (one of the partner's six keyed writes, evidence §5 [D for-ai-agents]); the
   * key is made before the first attempt and reused on retries. The answer's shape is an open
   * question (evidence question 4): the created entry, unwrapped from `data` when nested.
   */
  async createLiquidationAddress(
    virtualAccountId: string,
    input: CreatePartnerLiquidationAddressInput,
    options?: PartnerCallOptions,
  ): Promise<PartnerLiquidationAddress> {
    const va = encodePathSegment(requireId(virtualAccountId, 'virtualAccountId'));
    const errors: PartnerFieldError[] = [];
    for (const field of ['network', 'token', 'recipient_id'] as const)
      if (typeof input?.[field] !== 'string' || input[field].trim() === '')
        errors.push({ field, message: 'is required (a non-empty string)' });
    if (errors.length) throw new PartnerLocalValidationError(errors);
    const body = { network: input.network, token: input.token, recipient_id: input.recipient_id };
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

  /**
   * GET /v1/virtual-accounts: one page `{data, pagination:{total, limit, offset, has_more}}`, offset
   * paging like the users list (evidence §5 [T2s Common.cs]). `provider` and `currency` are null
   * in list rows: read one account with `get` for them. `page` is refused before I/O: the partner's
   * answer pages by offset and nothing shows it reads `page`.
   */
  async list(
    query: ListPartnerVirtualAccountsQuery = {},
    options?: PartnerCallOptions,
  ): Promise<PartnerPage<PartnerVirtualAccount>> {
    if ((query as { page?: unknown }).page !== undefined)
      throw new PartnerLocalValidationError([
        { field: 'page', message: 'GET /v1/virtual-accounts pages by offset: pass limit and offset' },
      ]);
    checkPageParams(query.limit, query.offset);
    const res = await send<unknown>(
      this.http,
      { method: 'GET', path: '/v1/virtual-accounts', query: { ...query } },
      options,
    );
    return toOffsetPage(res.data, ['data'], (row) => row as PartnerVirtualAccount);
  }

  /**
   * Every virtual account matching the query, offset page after offset page (`for await (const va
   * of ...)`); PartnerPagingError if the partner answers a page other than the one asked for.
   */
  iterate(
    query: Omit<ListPartnerVirtualAccountsQuery, 'offset'> = {},
    options?: PartnerCallOptions,
  ): AsyncGenerator<PartnerVirtualAccount, void, undefined> {
    const { limit, ...rest } = query;
    checkPageParams(limit, undefined);
    return iterateOffsetPages(
      (offset, l) => this.list({ ...rest, limit: l, offset }, options),
      limit ?? 100,
      'GET /v1/virtual-accounts',
    );
  }

  /**
   * GET /v1/virtual-accounts/{id}/balance. The partner answers 400 while the account is activating
   * (evidence §5): that 400 is a PartnerVirtualAccountNotActiveError saying so.
   */
  async getBalance(
    virtualAccountId: string,
    options?: PartnerCallOptions,
  ): Promise<PartnerVirtualAccountBalance> {
    const id = requireId(virtualAccountId, 'virtualAccountId');
    try {
      const res = await send<unknown>(
        this.http,
        { method: 'GET', path: `/v1/virtual-accounts/${encodePathSegment(id)}/balance` },
        options,
      );
      const b = asRecord(res.data);
      return (
        typeof b.available_balance === 'string' ? b : unwrap(b, 'data')
      ) as PartnerVirtualAccountBalance;
    } catch (err) {
      if (err instanceof PartnerValidationError && err.status === 400)
        throw new PartnerVirtualAccountNotActiveError(id, { ...err, message: err.message, cause: err });
      throw err;
    }
  }
}
