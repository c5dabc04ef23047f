import type { PartnerPayout, PartnerPayoutsService } from '@partner-payments/nestjs';
import { withLogFields } from '../observability/log-context.util';
import type { PayoutEntity } from '../payouts/payout.entity';
import { mapWithConcurrency } from './concurrency.util';
import type { Pass } from './reconciliation-pass.store';
import type { ReconciliationSummary } from './reconciliation.types';

/** GET /v1/payouts/{id} for each row, `concurrency` at a time; a failure is kept, not thrown. */
export async function readPayouts(
  rows: PayoutEntity[],
  partnerPayouts: PartnerPayoutsService,
  concurrency: number,
  summary: ReconciliationSummary,
): Promise<Map<string, PartnerPayout | Error>> {
  const answers = await mapWithConcurrency(rows, concurrency, async (row) => {
    summary.reads += 1;
    try {
      // One log scope per payout (payout_id on the lines of its read), reads side by side.
      return await withLogFields({ payout_id: row.payoutId }, () => partnerPayouts.get(row.payoutId));
    } catch (error) {
      return error instanceof Error ? error : new Error(String(error));
    }
  });
  return new Map(rows.map((row, i) => [row.payoutId, answers[i]]));
}

/** The claim's timestamp: never before the pass's start, even on a replica whose clock is behind the opener's. */
export function claimStamp(pass: Pass): Date {
  return new Date(Math.max(Date.now(), pass.startedAt.getTime()));
}
