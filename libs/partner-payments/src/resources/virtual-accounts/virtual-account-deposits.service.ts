import { PartnerHttpClient } from '../../http/partner-http.client';
import { encodePathSegment } from '../../http/url.util';
import { PartnerLocalValidationError, type PartnerFieldError } from '../../errors/partner.errors';
import { PartnerSandboxOnlyOperationError } from '../../errors/partner-api.errors';
import type { PartnerCallOptions } from '../shared/common.model';
import { amountProblem } from '../shared/validation.util';
import { asRecord, checkPageParams, requireId, send, unwrap } from '../shared/resource.util';
import type {
  ListAllPartnerDepositsQuery,
  PartnerDeposit,
  PartnerNumberedPage,
  SimulatePartnerDepositInput,
} from './virtual-account.model';

function checkNumberedPage(page: unknown, limit: unknown): void {
  const errors: PartnerFieldError[] = [];
  if (page !== undefined && (typeof page !== 'number' || !Number.isInteger(page) || page < 1))
    errors.push({ field: 'page', message: 'must be an integer >= 1' });
  if (errors.length) throw new PartnerLocalValidationError(errors);
  checkPageParams(limit, undefined);
}

/**
 * Reads a page-numbered answer `{data, pagination:{page, limit, total, total_pages}}` (the deposits
 * of every account, paged by `page`: evidence §5 [T1 REVISION-DOCS §3.3]; its fields are not shown).
 */
function toNumberedPage<T>(body: unknown, requestedPage: number): PartnerNumberedPage<T> {
  const b = asRecord(body);
  const p = asRecord(b.pagination);
  const num = (v: unknown): number | null => (typeof v === 'number' && Number.isFinite(v) ? v : null);
  const data = (Array.isArray(body) ? body : Array.isArray(b.data) ? b.data : []) as T[];
  const page = num(p.page) ?? requestedPage;
  const limit = num(p.limit);
  const total = num(p.total);
  const totalPages = num(p.total_pages) ?? (total !== null && limit ? Math.ceil(total / limit) : null);
  const hasMore = totalPages !== null ? page < totalPages : limit !== null && data.length >= limit;
  return { data, page, limit, total, totalPages, hasMore };
}

async function* iterateNumberedPages<T>(
  fetchPage: (page: number) => Promise<PartnerNumberedPage<T>>,
  startPage = 1,
): AsyncGenerator<T, void, undefined> {
  for (let page = startPage; ; page++) {
    const result = await fetchPage(page);
    yield* result.data;
    if (!result.hasMore || result.data.length === 0) return;
  }
}

/**
 * The deposits of virtual accounts (spec 4.7, provider-facts "Virtual accounts and deposits"):
 * reading them one account or every account at a time, and the sandbox's simulated deposit.
 * PartnerVirtualAccountsService extends it, so callers reach them as `virtualAccounts.listDeposits`.
 */
export abstract class PartnerVirtualAccountDeposits {
  /** @internal */
  protected readonly http: PartnerHttpClient;

  constructor(http: PartnerHttpClient) {
    this.http = http;
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

  /** GET /v1/virtual-accounts/{id}/deposits: a bare array, `limit` 1-100 and `offset` (evidence §5 [T1 KiraApiClient]). */
  async listDeposits(
    virtualAccountId: string,
    query: { limit?: number; offset?: number } = {},
    options?: PartnerCallOptions,
  ): Promise<PartnerDeposit[]> {
    const id = encodePathSegment(requireId(virtualAccountId, 'virtualAccountId'));
    checkPageParams(query.limit, query.offset);
    const res = await send<unknown>(
      this.http,
      { method: 'GET', path: `/v1/virtual-accounts/${id}/deposits`, query: { ...query } },
      options,
    );
    const b = res.data;
    return (Array.isArray(b) ? b : (asRecord(b).data ?? [])) as PartnerDeposit[];
  }

  /** Every deposit of one account, offset page after offset page. */
  async *iterateDeposits(
    virtualAccountId: string,
    query: { limit?: number } = {},
    options?: PartnerCallOptions,
  ): AsyncGenerator<PartnerDeposit, void, undefined> {
    const limit = query.limit ?? 100;
    for (let offset = 0; ; offset += limit) {
      const page = await this.listDeposits(virtualAccountId, { limit, offset }, options);
      yield* page;
      if (page.length < limit) return;
    }
  }

  /** GET /v1/virtual-accounts/deposits: deposits of every account, paged by `page` (evidence §5 [T1 REVISION-DOCS §3.3]). */
  async listAllDeposits(
    query: ListAllPartnerDepositsQuery = {},
    options?: PartnerCallOptions,
  ): Promise<PartnerNumberedPage<PartnerDeposit>> {
    checkNumberedPage(query.page, query.limit);
    const res = await send<unknown>(
      this.http,
      { method: 'GET', path: '/v1/virtual-accounts/deposits', query: { ...query } },
      options,
    );
    return toNumberedPage<PartnerDeposit>(res.data, query.page ?? 1);
  }

  /** Every deposit across accounts matching the query, page after page. */
  iterateAllDeposits(
    query: Omit<ListAllPartnerDepositsQuery, 'page'> = {},
    options?: PartnerCallOptions,
  ): AsyncGenerator<PartnerDeposit, void, undefined> {
    checkNumberedPage(undefined, query.limit);
    return iterateNumberedPages((page) =>
      this.listAllDeposits({ ...query, page, limit: query.limit ?? 100 }, options),
    );
  }

  /**
   * POST /v1/virtual-accounts/{id}/simulate-deposit: the partner's sandbox only (production answers
   * 403, evidence §5), so a client configured for production refuses it before any I/O. Credits the
   * balance at once and sends the deposit event; amount "11" gives a refund. No Idempotency-Key
   * (not a keyed write), so it is never retried once sent.
   */
  async simulateDeposit(
    virtualAccountId: string,
    input: SimulatePartnerDepositInput,
    options?: PartnerCallOptions,
  ): Promise<PartnerDeposit> {
    if (this.http.environment === 'production')
      throw new PartnerSandboxOnlyOperationError('virtualAccounts.simulateDeposit');
    const id = encodePathSegment(requireId(virtualAccountId, 'virtualAccountId'));
    const errors: PartnerFieldError[] = [];
    const amount = amountProblem(input?.amount);
    if (amount) errors.push(amount);
    if (input?.currency !== undefined && input.currency !== 'USD')
      errors.push({ field: 'currency', message: 'must be USD' });
    if (errors.length) throw new PartnerLocalValidationError(errors);
    const res = await send<unknown>(
      this.http,
      { method: 'POST', path: `/v1/virtual-accounts/${id}/simulate-deposit`, body: { ...input } },
      options,
    );
    const b = asRecord(res.data);
    return (typeof b.deposit_id === 'string' ? b : unwrap(b, 'data', 'deposit')) as PartnerDeposit;
  }
}
