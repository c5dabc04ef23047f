import { PartnerLocalValidationError, type PartnerFieldError } from '../errors/partner.errors';
import { PartnerHttpClient } from '../http/partner-http.client';
import { encodePathSegment } from '../http/url.util';
import type { PartnerCallOptions } from '../models/common.model';
import {
  toPartnerPayout,
  type CreatePartnerPayoutInput,
  type ListPartnerPayoutsParams,
  type PartnerPayout,
  type PartnerPayoutPage,
  type PartnerPayoutPreview,
  type PreviewPartnerPayoutInput,
} from '../models/payout.model';
import { amountProblem } from '../validation/validation.util';
import { asRecord, requireId, send } from './resource.util';

const LIST_KEYS: ReadonlyArray<keyof ListPartnerPayoutsParams> = [
  'user_id',
  'status',
  'from_date',
  'to_date',
  'page',
  'limit',
];

/** Payouts (spec 3.4, provider-facts "Payouts"). */
/** page >= 1 and limit 1-100 (evidence §6: limit ≤ 100), naming the field before any I/O. */
function checkNumberedPageParams(page: unknown, limit: unknown): void {
  const errors: PartnerFieldError[] = [];
  if (page !== undefined && (typeof page !== 'number' || !Number.isInteger(page) || page < 1))
    errors.push({ field: 'page', message: 'must be an integer >= 1' });
  if (
    limit !== undefined &&
    (typeof limit !== 'number' || !Number.isInteger(limit) || limit < 1 || limit > 100)
  )
    errors.push({ field: 'limit', message: 'must be an integer from 1 to 100' });
  if (errors.length) throw new PartnerLocalValidationError(errors);
}

export class PartnerPayoutsService {
  constructor(private readonly http: PartnerHttpClient) {}

  /**
   * POST /v1/virtual-accounts/{id}/payout. The Idempotency-Key is generated once and reused on every
   * retry; pass your own (e.g. stored with your payout row) to make a retry after a crash safe too.
   */
  async create(
    virtualAccountId: string,
    input: CreatePartnerPayoutInput,
    options?: PartnerCallOptions,
  ): Promise<PartnerPayout> {
    const va = encodePathSegment(requireId(virtualAccountId, 'virtualAccountId'));
    const errors: PartnerFieldError[] = [];
    // provider-facts: amount is a gross decimal string ("100.00"); a float would lose cents.
    const amount = amountProblem(input?.amount);
    if (amount) errors.push(amount);
    if (typeof input?.currency !== 'string' || input.currency === '')
      errors.push({ field: 'currency', message: 'is required' });
    if (typeof input?.recipient_id !== 'string' || input.recipient_id === '')
      errors.push({ field: 'recipient_id', message: 'is required' });
    if (errors.length > 0) throw new PartnerLocalValidationError(errors);
    const res = await send<unknown>(
      this.http,
      { method: 'POST', path: `/v1/virtual-accounts/${va}/payout`, body: input },
      options,
    );
    return toPartnerPayout(res.data);
  }

  /**
   * POST /v1/virtual-accounts/{id}/payout/preview: fees, amounts and currencies before creating
   * (evidence §6). Creates nothing and takes no Idempotency-Key. Checked before any I/O: `amount` a
   * decimal string with up to 2 decimals, `recipient_id` or `account_type`, `client_markup` an object,
   * no field null. The partner's own sandbox refuses every preview ("Total fees exceed or equal the
   * payout amount", DRIFT-45): expect a PartnerValidationError there.
   */
  async preview(
    virtualAccountId: string,
    input: PreviewPartnerPayoutInput,
    options?: PartnerCallOptions,
  ): Promise<PartnerPayoutPreview> {
    const va = encodePathSegment(requireId(virtualAccountId, 'virtualAccountId'));
    const errors: PartnerFieldError[] = [];
    const body = (input ?? {}) as unknown as Record<string, unknown>;
    for (const [field, value] of Object.entries(body))
      if (value === null)
        errors.push({
          field,
          message: 'must be left out rather than null (the partner counts null as a type error)',
        });
    const amount = amountProblem(input?.amount);
    if (amount) errors.push(amount);
    if (input?.recipient_id === undefined && input?.account_type === undefined)
      errors.push({ field: 'recipient_id', message: 'recipient_id or account_type is required' });
    if (input?.recipient_id !== undefined && input.recipient_id !== null)
      requireId(input.recipient_id, 'recipient_id');
    if (
      input?.client_markup !== undefined &&
      input.client_markup !== null &&
      (typeof input.client_markup !== 'object' || Array.isArray(input.client_markup))
    )
      errors.push({ field: 'client_markup', message: 'must be an object' });
    for (const flag of ['inverse_calculation', 'create_quote'] as const)
      if (input?.[flag] !== undefined && input[flag] !== null && typeof input[flag] !== 'boolean')
        errors.push({ field: flag, message: 'must be a boolean' });
    if (errors.length) throw new PartnerLocalValidationError(errors);
    const res = await send<unknown>(
      this.http,
      { method: 'POST', path: `/v1/virtual-accounts/${va}/payout/preview`, body: { ...input } },
      options,
    );
    const b = asRecord(res.data);
    return (typeof b.amount === 'string' ? b : asRecord(b.data)) as PartnerPayoutPreview;
  }

  /** GET /v1/payouts/{payout_id}: 404 unknown, 403 another client's. */
  async get(payoutId: string, options?: PartnerCallOptions): Promise<PartnerPayout> {
    const id = encodePathSegment(requireId(payoutId, 'payoutId'));
    const res = await send<unknown>(this.http, { method: 'GET', path: `/v1/payouts/${id}` }, options);
    return toPartnerPayout(res.data);
  }

  /**
   * GET /v1/payouts?user_id&status&from_date&to_date&page&limit (evidence §6 [T1
   * ExecutePayoutService]): `{payouts[], page, limit, total, total_pages}`; limit at most 100 and any
   * other parameter answers 400, so only the named ones are sent (checked before any I/O). Payouts
   * are global to the integrator: filter by `user_id`.
   */
  async list(
    params: ListPartnerPayoutsParams = {},
    options?: PartnerCallOptions,
  ): Promise<PartnerPayoutPage> {
    checkNumberedPageParams(params.page, params.limit);
    const query: Record<string, string | number> = {};
    for (const k of LIST_KEYS) if (params[k] !== undefined) query[k] = params[k];
    const res = await send<unknown>(this.http, { method: 'GET', path: '/v1/payouts', query }, options);
    const b = asRecord(res.data);
    const num = (v: unknown): number | null => (typeof v === 'number' && Number.isFinite(v) ? v : null);
    const list = Array.isArray(b.payouts) ? b.payouts : Array.isArray(b.data) ? b.data : [];
    return {
      payouts: list.map(toPartnerPayout),
      total: num(b.total),
      page: num(b.page),
      limit: num(b.limit),
      totalPages: num(b.total_pages),
    };
  }

  /** Every payout matching the filter, page after page (page numbers from 1). */
  async *iterate(
    params: Omit<ListPartnerPayoutsParams, 'page'> = {},
    options?: PartnerCallOptions,
  ): AsyncGenerator<PartnerPayout> {
    for (let page = 1; ; page++) {
      const res = await this.list({ ...params, page }, options);
      for (const p of res.payouts) yield p;
      const done =
        res.totalPages !== null
          ? page >= res.totalPages
          : res.payouts.length < (params.limit ?? res.limit ?? Infinity);
      if (done || res.payouts.length === 0) return;
    }
  }
}
