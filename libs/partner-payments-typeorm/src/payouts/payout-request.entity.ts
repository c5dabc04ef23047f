import { Column, Entity, Index, PrimaryColumn } from 'typeorm';

/**
 * pending: stored, the partner's answer not yet stored (in flight, or lost in a crash: the
 * re-drive sends it again); created: the partner's payout is stored; rejected: the partner (or the
 * module's validation) refused it; needs_review: still pending past the maximum age, left to an
 * operator (sending a key the partner may have forgotten could create a second payout).
 */
export type PartnerPayoutRequestState = 'pending' | 'created' | 'rejected' | 'needs_review';

/**
 * One payout request of `PartnerPayoutOutbox`, keyed by its Idempotency-Key and stored BEFORE the
 * partner is called: a retry after a crash finds it and sends the same key and body again, and
 * the partner answers with the original payout instead of creating a second one (spec 8;
 * provider-facts "Replaying an Idempotency-Key returns the original result").
 */
@Entity({ name: 'partner_payout_requests' })
@Index('idx_partner_payout_requests_state_created', ['state', 'createdAt'])
export class PartnerPayoutRequestEntity {
  @PrimaryColumn({ name: 'idempotency_key', type: 'varchar', length: 64 })
  idempotencyKey!: string;

  /** sha256 of the request (partnerPayoutFingerprint): the same key with another body is refused. */
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
   * extra_info.memo as sent (evidence §6), in toStoredText's form, so a re-send carries the
   * identical body on both databases (PostgreSQL refuses U+0000; UTF-8 storage would turn a lone
   * surrogate into U+FFFD). Null without a memo. Free text a person typed: never logged.
   */
  @Column({ name: 'memo', type: 'text', nullable: true })
  memo!: string | null;

  @Column({ name: 'state', type: 'varchar', length: 16 })
  state!: PartnerPayoutRequestState;

  /** The partner's payout id once the request is created (or an operator resolved it so). */
  @Column({ name: 'payout_id', type: 'varchar', length: 64, nullable: true })
  payoutId!: string | null;

  /** Why it is not created yet, or why it was refused (at most 2000 characters). */
  @Column({ name: 'last_error', type: 'text', nullable: true })
  lastError!: string | null;

  /** Sends made by the re-drive. */
  @Column({ name: 'attempts', type: 'integer', default: 0 })
  attempts!: number;

  /** When the re-drive may send it again (a claim while a send is in flight, or a backoff); null: once past the grace. */
  @Column({ name: 'next_attempt_at', type: Date, nullable: true })
  nextAttemptAt!: Date | null;

  @Column({ name: 'created_at', type: Date })
  createdAt!: Date;

  @Column({ name: 'updated_at', type: Date })
  updatedAt!: Date;
}
