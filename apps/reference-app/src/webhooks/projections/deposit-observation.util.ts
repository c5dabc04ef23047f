import { canonicalPartnerStatus } from '@partner-payments/nestjs/models';
import { columnText } from './column-text.util';
import { DEPOSIT_RECEIVED } from './deposit-status.policy';
import type { DepositObservation } from './resource-projections.service';

/** The fields a deposit event's data and the deposit resource share (spec 6.4.2, evidence §5). */
export interface DepositFields {
  virtual_account_id?: string | null;
  user_id?: string | null;
  amount?: string | number | null;
  currency?: string | null;
  status?: string | null;
  created_at?: unknown;
  source?: { payment_rail?: string; sender_name?: string } | null;
}

/**
 * One deposit as the projection takes it, from a deposit event or from the resource read by
 * reconciliation: both go through the same status rule (deposit-status.policy.ts), so a deposit
 * read from the partner lands exactly as its webhook would have.
 */
export function toDepositObservation(
  depositId: string,
  kind: 'deposit' | 'microdeposit',
  fields: DepositFields,
): DepositObservation {
  const occurred = typeof fields.created_at === 'string' ? new Date(fields.created_at) : null;
  return {
    depositId,
    kind,
    virtualAccountId: fields.virtual_account_id ?? null,
    userId: fields.user_id ?? null,
    amount: fields.amount === undefined || fields.amount === null ? null : String(fields.amount),
    currency: fields.currency ?? null,
    status: canonicalPartnerStatus(fields.status) ?? DEPOSIT_RECEIVED,
    paymentRail: fields.source?.payment_rail ? fields.source.payment_rail.toUpperCase() : null,
    senderName: columnText(fields.source?.sender_name, 200),
    occurredAt: occurred && !Number.isNaN(occurred.getTime()) ? occurred : null,
  };
}
