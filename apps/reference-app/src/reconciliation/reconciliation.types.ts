import type { SettleOutcome } from './payout-settler.service';

export interface ReconciliationSummary {
  /** false when there was nothing to take part in: this tick's pass had already run. */
  ran: boolean;
  /** What THIS replica did in the pass (replicas in one pass split the payouts between them). */
  checked: number;
  changed: number;
  failed: number;
  /** Claims made: list pages settled plus batches of single reads. */
  batches: number;
  /** List pages read (GET /v1/payouts). */
  pages: number;
  /** Payouts read one by one (GET /v1/payouts/{id}). */
  reads: number;
  /** The shared pass; `opened` false when this replica joined one another replica opened. */
  passId: string | null;
  opened: boolean;
}

export const emptySummary = (): ReconciliationSummary => ({
  ran: false,
  checked: 0,
  changed: 0,
  failed: 0,
  batches: 0,
  pages: 0,
  reads: 0,
  passId: null,
  opened: false,
});

export function countOutcomes(summary: ReconciliationSummary, outcomes: Map<string, SettleOutcome>): void {
  for (const outcome of outcomes.values()) {
    summary.checked += 1;
    if (outcome === 'changed') summary.changed += 1;
    if (outcome === 'failed') summary.failed += 1;
  }
}
