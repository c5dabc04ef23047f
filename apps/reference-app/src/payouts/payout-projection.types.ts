import type { PartnerPayoutStatusChangeReason } from '@partner-payments/nestjs/models';
import type { PayoutEntity, PayoutSource } from './payout.entity';

/** One thing we learned about a payout, from the create answer, a webhook or reconciliation. */
export interface PayoutObservation {
  payoutId: string;
  /** As received, any casing. */
  status: string;
  /**
   * From an event: the status it says the payout left (V2 previous_status), null when it names
   * none (granular payout.*). Guards sideways moves (decidePayoutStatusChange); absent for reads.
   */
  previousStatus?: string | null;
  source: PayoutSource;
  referenceNumber?: string | null;
  errorCode?: string | null;
  reviewReason?: string | null;
  amount?: string | null;
  currency?: string | null;
  recipientId?: string | null;
  userId?: string | null;
  virtualAccountId?: string | null;
  idempotencyKey?: string | null;
}

/** What apply() did with one observation. */
export interface PayoutProjectionResult {
  outcome: 'created' | 'changed' | 'unchanged';
  reason: PartnerPayoutStatusChangeReason;
  previousStatus: string | null;
  status: string;
  row: PayoutEntity;
}

/** Rows a caller has in hand, and (deferWrites) the writes apply() left for flushDeferred. */
export interface KnownRows {
  rows: Map<string, PayoutEntity>;
  deferred: Map<
    string,
    { readVersion: number; next: PayoutEntity; observations: PayoutObservation[] }
  > | null;
  /** The caller's set of payouts whose stored status this scope's writes moved (withKnownRows). */
  changed: Set<string> | null;
}
