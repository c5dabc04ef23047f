import type { PayoutEntity } from './payout.entity';
import type { PayoutResponse } from './create-payout.dto';

export function toPayoutResponse(row: PayoutEntity): PayoutResponse {
  return {
    payout_id: row.payoutId,
    status: row.status,
    previous_status: row.previousStatus,
    virtual_account_id: row.virtualAccountId,
    recipient_id: row.recipientId,
    user_id: row.userId,
    amount: row.amount,
    currency: row.currency,
    idempotency_key: row.idempotencyKey,
    reference_number: row.referenceNumber,
    error_code: row.errorCode,
    review_reason: row.reviewReason,
    last_source: row.lastSource,
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
    last_checked_at: row.lastCheckedAt ? row.lastCheckedAt.toISOString() : null,
    version: row.version,
  };
}
