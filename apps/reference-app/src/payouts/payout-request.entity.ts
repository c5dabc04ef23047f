import { Column, Entity, PrimaryColumn } from 'typeorm';

/**
 * pending: stored, the partner's answer not yet stored (in flight, or lost in a crash: the re-drive
 * re-sends it); created: the payout is stored; rejected: the partner (or local validation) refused it;
 * needs_review: still pending past PAYOUT_REDRIVE_MAX_AGE_HOURS, left to an operator (re-sending a key
 * the partner may have forgotten could create a second payout).
 */
export type PayoutRequestState = 'pending' | 'created' | 'rejected' | 'needs_review';

/**
 * The Idempotency-Key of POST /payouts, stored BEFORE the partner is called. A retry after a crash
 * finds the row and calls the partner again with the same key, and the partner answers with the
 * original payout instead of creating a second one (provider-facts: "Replaying an
 * Idempotency-Key returns the original result").
 */
@Entity({ name: 'payout_requests' })
export class PayoutRequestEntity {
  @PrimaryColumn({ name: 'idempotency_key', type: 'varchar', length: 64 })
  idempotencyKey!: string;

  /** sha256 of the canonical request: the same key with another body is refused. */
  @Column({ name: 'fingerprint', type: 'varchar', length: 64 })
  fingerprint!: string;

  @Column({ name: 'virtual_account_id', type: 'varchar', length: 64 })
  virtualAccountId!: string;

  @Column({ name: 'recipient_id', type: 'varchar', length: 64 })
  recipientId!: string;

  @Column({ name: 'amount', type: 'varchar', length: 32 })
  amount!: string;

  @Column({ name: 'currency', type: 'varchar', length: 8 })
  currency!: string;

  /**
   * extra_info.memo as sent (evidence §6), as its JSON string escape (payouts.service.ts
   * storedMemo), so the re-drive sends the identical body; null without a memo. Free text the user
   * typed: never logged, and no answer of the app returns it. Migration 1764800000000.
   */
  @Column({ name: 'memo', type: 'text', nullable: true })
  memo!: string | null;

  @Column({ name: 'state', type: 'varchar', length: 16 })
  state!: PayoutRequestState;

  @Column({ name: 'payout_id', type: 'varchar', length: 64, nullable: true })
  payoutId!: string | null;

  @Column({ name: 'last_error', type: 'text', nullable: true })
  lastError!: string | null;

  /** Re-sends made by the re-drive (payouts/payout-redrive.service.ts). */
  @Column({ name: 'attempts', type: 'integer', default: 0 })
  attempts!: number;

  /** When the re-drive may send it again (a claim while a re-send is in flight, or a backoff); null: once past the grace period. */
  @Column({ name: 'next_attempt_at', type: Date, nullable: true })
  nextAttemptAt!: Date | null;

  @Column({ name: 'created_at', type: Date })
  createdAt!: Date;

  @Column({ name: 'updated_at', type: Date })
  updatedAt!: Date;
}
