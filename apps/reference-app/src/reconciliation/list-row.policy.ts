import { PartnerPayoutStatus, type PartnerPayout } from '@partner-payments/nestjs';
import { decidePayoutStatusChange } from '@partner-payments/nestjs/models';
import type { PayoutEntity } from '../payouts/payout.entity';

/**
 * Share of a page's claimed payouts that may also be read by GET (at least one per page). The rest
 * of what the list cannot give waits for later passes: the status, which is what settles a payout,
 * is on the list row; the details are not, and the partner's budget is 20 requests/s per account.
 */
export const DETAIL_READ_SHARE = 0.02;

/** Why a payout settled from its list row is also worth a GET; null when the row says all we need. */
export type ResourceNeed = 'error-code' | 'reference-number' | null;

/**
 * List rows carry no error_code and no reference_number (evidence §6); both are on the resource
 * only (spec 6.4.4). A payout that is (or is about to be, by this row) FAILED without its error
 * code, or COMPLETED without its bank reference, and whose resource was not read since it reached
 * that state, is worth one read. Pure.
 */
export function wantsResource(row: PayoutEntity, listed: PartnerPayout): ResourceNeed {
  const change = decidePayoutStatusChange(row.status, listed.status);
  const status = change.apply ? change.next : row.status;
  const readSinceLastChange =
    !change.apply && row.resourceReadAt !== null && row.resourceReadAt >= row.updatedAt;
  if (readSinceLastChange) return null;
  if (status === PartnerPayoutStatus.Failed && row.errorCode === null) return 'error-code';
  if (status === PartnerPayoutStatus.Completed && row.referenceNumber === null) return 'reference-number';
  return null;
}

/** Which of the rows wanting a GET are read now: failures first (their error code explains them). */
export function detailReadsFor(
  wanted: ReadonlyArray<{ row: PayoutEntity; need: Exclude<ResourceNeed, null> }>,
  claimed: number,
): PayoutEntity[] {
  const budget = Math.ceil(DETAIL_READ_SHARE * claimed);
  return [...wanted]
    .sort((a, b) => (a.need === b.need ? 0 : a.need === 'error-code' ? -1 : 1))
    .slice(0, budget)
    .map((w) => w.row);
}
