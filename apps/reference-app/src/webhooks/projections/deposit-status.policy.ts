import { canonicalPartnerStatus, isTerminalDepositStatus } from '@partner-payments/nestjs/models';

/** The app's own status for a deposit whose event named none (projection-handlers.service.ts). */
export const DEPOSIT_RECEIVED = 'RECEIVED';

/** Statuses a deposit holds before it settles; a COMPLETED deposit never returns to one. */
const BEFORE_SETTLEMENT: ReadonlySet<string> = new Set([
  'PENDING',
  'KYT_PENDING',
  'KYT_REJECTED',
  DEPOSIT_RECEIVED,
]);

/**
 * Whether a deposit status from an event or a reconciliation read may replace the stored one
 * (evidence §5 [T1 REVISION-DOCS §2.1]: PENDING, COMPLETED, FAILED, REFUNDED, KYT_PENDING,
 * KYT_REJECTED; only FAILED and REFUNDED are final; KYT_REJECTED can be released to COMPLETED).
 * Reads and deliveries can arrive late: a list page read before a deposit completed, applied after
 * its webhook, must not move COMPLETED back to PENDING, nor a late PENDING reset a hold, nor a late
 * KYT_PENDING undo a rejection; and a final status stays. COMPLETED may still become REFUNDED or FAILED (a refund after settlement).
 */
export function decideDepositStatus(
  current: string | null,
  incoming: string | null | undefined,
): string | null {
  const next = canonicalPartnerStatus(incoming);
  if (next === null) return current;
  if (current === null || current === DEPOSIT_RECEIVED) return next;
  if (isTerminalDepositStatus(current)) return current;
  // A status-less event says nothing newer than what is stored.
  if (next === DEPOSIT_RECEIVED) return current;
  if (current === 'COMPLETED' && BEFORE_SETTLEMENT.has(next)) return current;
  if (next === 'PENDING' && current !== 'PENDING') return current;
  // A rejected hold is released to COMPLETED or ends FAILED/REFUNDED (evidence §5 [T1 REVISION-DOCS
  // §2.1]); nothing leads from KYT_REJECTED back to KYT_PENDING, so one heard after it is a list page
  // read before the rejection or a late delivery (deliveries are independent, spec 6.1.4).
  if (next === 'KYT_PENDING' && current === 'KYT_REJECTED') return current;
  return next;
}
