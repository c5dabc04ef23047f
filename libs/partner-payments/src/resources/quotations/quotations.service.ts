import { PartnerLocalValidationError } from '../../errors/partner.errors';
import { PartnerHttpClient } from '../../http/partner-http.client';
import type { PartnerCallOptions } from '../shared/common.model';
import type { CreatePartnerQuotationInput, PartnerQuotation } from './quotation.model';
import { quotationProblems } from './quotation.rules';
import { asRecord, send } from '../shared/resource.util';

/** Quotations, a route the contract does not list (evidence §11 N36). */
export class PartnerQuotationsService {
  constructor(private readonly http: PartnerHttpClient) {}

  /**
   * POST /v1/quotations. Checked before any I/O: `recipient_id` (a UUID) or `account_type` (WIRE,
   * SWIFT, WALLET, ACH, INSTANT_PAY), both currencies, `amount` a positive integer in minor units.
   * The partner's own refusal names `recipient_id` with `path` as an array; it arrives as a
   * PartnerValidationError whose fieldErrors say so. Sent with an Idempotency-Key and never
   * replayed on its own (nothing shows the partner de-duplicates it).
   */
  async create(input: CreatePartnerQuotationInput, options?: PartnerCallOptions): Promise<PartnerQuotation> {
    const errors = quotationProblems(input as Record<string, unknown>);
    if (errors.length) throw new PartnerLocalValidationError(errors);
    const res = await send<unknown>(
      this.http,
      { method: 'POST', path: '/v1/quotations', body: { ...input } },
      options,
    );
    const b = asRecord(res.data);
    return (
      typeof b.data === 'object' && b.data !== null && !Array.isArray(b.data) ? asRecord(b.data) : b
    ) as PartnerQuotation;
  }
}
