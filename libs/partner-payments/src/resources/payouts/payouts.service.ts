import { PartnerLocalValidationError, type PartnerFieldError } from '../../errors/partner.errors';
import { PartnerHttpClient } from '../../http/partner-http.client';
import { encodePathSegment } from '../../http/url.util';
import type { PartnerCallOptions } from '../shared/common.model';
import type { CreatePartnerCryptoPayoutInput, PartnerCryptoPayout } from '../quotations/quotation.model';
import { toPartnerPayout } from './payout-mapper.util';
import {
  type CreatePartnerPayoutInput,
  type ListPartnerPayoutsParams,
  type PartnerPayout,
  type PartnerPayoutPage,
  type PartnerPayoutPreview,
  type PreviewPartnerPayoutInput,
} from './payout.model';
import { amountProblem, describeType, uuidProblem } from '../shared/validation.util';
import { checkNumberedPageParams, cryptoPayoutProblems, nullFieldErrors } from './payout.rules';
import { asRecord, requireId, send } from '../shared/resource.util';

const LIST_KEYS: ReadonlyArray<keyof ListPartnerPayoutsParams> = [
  'user_id',
  'status',
  'from_date',
  'to_date',
  'page',
  'limit',
];

/** extra_info.memo holds at most 255 characters (evidence §6 [T1 ExecutePayoutService]). */
const MEMO_MAX = 255;

export class PartnerPayoutsService {
  constructor(private readonly http: PartnerHttpClient) {}

  /**
   * POST /v1/virtual-accounts/{id}/payout. The Idempotency-Key is generated once and reused on every
   * retry; pass your own (e.g. stored with your payout row) to make a retry after a crash safe too.
   * Checked before any I/O, every problem at once: `virtualAccountId` and `recipient_id` UUIDs,
   * `amount` a decimal string with up to 2 decimals, `currency`, `quote_id` a non-empty string,
   * `client_markup` an object and not with `quote_id`, `nature_of_payment` a string, `extra_info` an object whose `memo` is a string of at most 255
   * characters and whose `internal_notes` is a string, no field null.
   */
  async create(
    virtualAccountId: string,
    input: CreatePartnerPayoutInput,
    options?: PartnerCallOptions,
  ): Promise<PartnerPayout> {
    const vaProblem = uuidProblem(virtualAccountId, 'virtualAccountId');
    const errors: PartnerFieldError[] = vaProblem ? [vaProblem] : [];
    const nulls = nullFieldErrors(input);
    errors.push(...nulls);
    // A null field is reported once, as null, rather than also as missing or malformed.
    const isNull = new Set(nulls.map((e) => e.field));
    // provider-facts: amount is a gross decimal string ("100.00"); a float would lose cents.
    const amount = isNull.has('amount') ? null : amountProblem(input?.amount);
    if (amount) errors.push(amount);
    if (!isNull.has('currency') && (typeof input?.currency !== 'string' || input.currency === ''))
      errors.push({ field: 'currency', message: 'is required' });
    const recipient = isNull.has('recipient_id') ? null : uuidProblem(input?.recipient_id, 'recipient_id');
    if (recipient) errors.push(recipient);
    // A quote's id as preview returned it (evidence §6): a non-empty string; the partner refuses
    // another type with a 400 that would only cost a round trip.
    const quote: unknown = input?.quote_id;
    if (quote !== undefined && quote !== null && (typeof quote !== 'string' || quote.trim() === ''))
      errors.push({
        field: 'quote_id',
        message:
          typeof quote === 'string' ? 'must not be blank' : `must be a string (got ${describeType(quote)})`,
      });
    // [T3r DRIFT-42]: client_markup must be an object, observed on the preview; carried over to the
    // execute body, which names the same field (evidence §6 [T1 ExecutePayoutService], code reading).
    // nature_of_payment and internal_notes: strings by the same source; no refusal is recorded.
    const markup: unknown = input?.client_markup;
    if (markup !== undefined && markup !== null && (typeof markup !== 'object' || Array.isArray(markup)))
      errors.push({ field: 'client_markup', message: `must be an object (got ${describeType(markup)})` });
    // The body carries `quote_id` OR `client_markup` (evidence §6 [T1 ExecutePayoutService]): a quote's
    // price was fixed at preview with its markup in it, and that integration never sends both because
    // the markup sent again would be charged twice (code reading, not probed). Refused here: dropping
    // the markup costs nothing when the quote holds it; sending it may cost the payee.
    else if (
      markup !== undefined &&
      markup !== null &&
      input?.quote_id !== undefined &&
      input.quote_id !== null
    )
      errors.push({
        field: 'client_markup',
        message: 'must not be sent with quote_id (the quote already prices the markup given at preview)',
      });
    const nature: unknown = input?.nature_of_payment;
    if (nature !== undefined && nature !== null && typeof nature !== 'string')
      errors.push({ field: 'nature_of_payment', message: `must be a string (got ${describeType(nature)})` });
    const extra: unknown = input?.extra_info;
    if (extra !== undefined && extra !== null) {
      if (typeof extra !== 'object' || Array.isArray(extra))
        // evidence §6 [T1 ExecutePayoutService]: extra_info{memo, internal_notes} is an object.
        errors.push({ field: 'extra_info', message: `must be an object (got ${describeType(extra)})` });
      else {
        errors.push(...nullFieldErrors(extra, 'extra_info'));
        const memo: unknown = (extra as Record<string, unknown>).memo;
        if (memo !== undefined && memo !== null && typeof memo !== 'string')
          errors.push({ field: 'extra_info.memo', message: `must be a string (got ${describeType(memo)})` });
        // evidence §6 [T1 ExecutePayoutService]: memo ≤255. Counted in UTF-16 code units (`length`),
        // as the partner counts its other string limits (metadata.rules.ts) and as the sandbox does.
        else if (typeof memo === 'string' && memo.length > MEMO_MAX)
          errors.push({
            field: 'extra_info.memo',
            message: `must be at most ${MEMO_MAX} characters (UTF-16 code units; got ${memo.length})`,
          });
        const notes: unknown = (extra as Record<string, unknown>).internal_notes;
        if (notes !== undefined && notes !== null && typeof notes !== 'string')
          errors.push({
            field: 'extra_info.internal_notes',
            message: `must be a string (got ${describeType(notes)})`,
          });
      }
    }
    if (errors.length > 0) throw new PartnerLocalValidationError(errors);
    const va = encodePathSegment(virtualAccountId);
    const res = await send<unknown>(
      this.http,
      { method: 'POST', path: `/v1/virtual-accounts/${va}/payout`, body: input },
      options,
    );
    return toPartnerPayout(res.data);
  }

  /**
   * POST /v1/virtual-accounts/{id}/payout/preview: fees, amounts and currencies before creating
   * (evidence §6). Creates nothing and takes no Idempotency-Key. Checked before any I/O, every
   * problem at once: `virtualAccountId` a UUID, `amount` a decimal string with up to 2 decimals,
   * `recipient_id` (a UUID) or `account_type`, `client_markup` an object, no field null. The partner's own sandbox refuses every preview ("Total fees exceed or equal the
   * payout amount", DRIFT-45): expect a PartnerValidationError there.
   */
  async preview(
    virtualAccountId: string,
    input: PreviewPartnerPayoutInput,
    options?: PartnerCallOptions,
  ): Promise<PartnerPayoutPreview> {
    // Every problem at once, as create does: both ids are UUIDs there and here (spec 4.6, 2.3).
    const vaProblem = uuidProblem(virtualAccountId, 'virtualAccountId');
    const errors: PartnerFieldError[] = vaProblem ? [vaProblem] : [];
    errors.push(...nullFieldErrors(input));
    const amount = amountProblem(input?.amount);
    if (amount) errors.push(amount);
    if (input?.recipient_id === undefined && input?.account_type === undefined)
      errors.push({ field: 'recipient_id', message: 'recipient_id or account_type is required' });
    const recipient =
      input?.recipient_id === undefined || input.recipient_id === null
        ? null
        : uuidProblem(input.recipient_id, 'recipient_id');
    if (recipient) errors.push(recipient);
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
    const va = encodePathSegment(virtualAccountId);
    const res = await send<unknown>(
      this.http,
      { method: 'POST', path: `/v1/virtual-accounts/${va}/payout/preview`, body: { ...input } },
      options,
    );
    const b = asRecord(res.data);
    return (typeof b.amount === 'string' ? b : asRecord(b.data)) as PartnerPayoutPreview;
  }

  /**
   * POST /v1/payouts: a crypto payout, a route the contract does not list (evidence §11 N35).
   * Checked before any I/O, every problem at once: `user_id` and `recipient_id` UUIDs, `amount`,
   * `currency`, `network`, `txHash` and `quote_id`. Sent with an Idempotency-Key and never replayed
   * on its own: nothing shows the partner de-duplicates it, and money moves.
   */
  async createCrypto(
    input: CreatePartnerCryptoPayoutInput,
    options?: PartnerCallOptions,
  ): Promise<PartnerCryptoPayout> {
    const errors = cryptoPayoutProblems(input as Record<string, unknown>);
    if (errors.length) throw new PartnerLocalValidationError(errors);
    const res = await send<unknown>(
      this.http,
      { method: 'POST', path: '/v1/payouts', body: { ...input } },
      options,
    );
    return asRecord(res.data) as PartnerCryptoPayout;
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
