import type { PartnerFieldError } from '../../errors/partner.errors';
import { uuidProblem } from '../shared/validation.util';

/** The account types a quotation names instead of a recipient (evidence §11 N36). */
export const QUOTATION_ACCOUNT_TYPES = ['WIRE', 'SWIFT', 'WALLET', 'ACH', 'INSTANT_PAY'] as const;

/**
 * POST /v1/quotations (a route the contract does not list; evidence §11 N36 [T3raw
 * verification-skip-attempt/03; D llms.txt]): `recipient_id` or `account_type` is required, the
 * currencies name the pair, and `amount` is in integer minor units.
 */
export function quotationProblems(input: Record<string, unknown> | undefined): PartnerFieldError[] {
  const b = input ?? {};
  const errors: PartnerFieldError[] = [];
  if (b.recipient_id !== undefined) {
    const problem = uuidProblem(b.recipient_id, 'recipient_id');
    if (problem) errors.push(problem);
  } else if (!(QUOTATION_ACCOUNT_TYPES as readonly unknown[]).includes(b.account_type))
    errors.push({
      field: b.account_type === undefined ? 'recipient_id' : 'account_type',
      message: `recipient_id or account_type (${QUOTATION_ACCOUNT_TYPES.join(', ')}) is required`,
    });
  for (const field of ['source_currency', 'destination_currency'] as const)
    if (typeof b[field] !== 'string' || (b[field] as string).trim() === '')
      errors.push({ field, message: 'is required (a currency code)' });
  if (typeof b.amount !== 'number' || !Number.isSafeInteger(b.amount) || b.amount <= 0)
    errors.push({ field: 'amount', message: 'must be a positive integer in minor units (cents)' });
  if (b.amount_type !== undefined && b.amount_type !== 'source' && b.amount_type !== 'destination')
    errors.push({ field: 'amount_type', message: 'must be source or destination' });
  return errors;
}
