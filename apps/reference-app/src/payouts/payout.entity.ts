import { Column, Entity, Index, PrimaryColumn } from 'typeorm';

/** Who last changed a payout row. */
export type PayoutSource = 'create' | 'webhook' | 'reconciliation';

/**
 * Our projection of a partner payout (spec 3.4, provider-facts "Payouts"). Written by the create
 * call, by webhook events and by reconciliation; `version` guards every status write
 * (optimistic locking: UPDATE ... WHERE version = :read), so two writers never silently overwrite
 * each other.
 */
@Entity({ name: 'payouts' })
// Not last_checked_at: a claim writes it, and must not touch an index (migration PayoutClaimsHot).
@Index('idx_payouts_status', ['status'])
export class PayoutEntity {
  @PrimaryColumn({ name: 'payout_id', type: 'varchar', length: 64 })
  payoutId!: string;

  @Column({ name: 'virtual_account_id', type: 'varchar', length: 64, nullable: true })
  virtualAccountId!: string | null;

  @Column({ name: 'recipient_id', type: 'varchar', length: 64, nullable: true })
  recipientId!: string | null;

  @Column({ name: 'user_id', type: 'varchar', length: 64, nullable: true })
  userId!: string | null;

  /** Gross amount as the decimal string the partner uses ("100.00"): never a float. */
  @Column({ name: 'amount', type: 'varchar', length: 32, nullable: true })
  amount!: string | null;

  @Column({ name: 'currency', type: 'varchar', length: 8, nullable: true })
  currency!: string | null;

  @Index('uq_payouts_idempotency_key', { unique: true })
  @Column({ name: 'idempotency_key', type: 'varchar', length: 64, nullable: true })
  idempotencyKey!: string | null;

  /** Canonical UPPERCASE (spec 6.4.5). */
  @Column({ name: 'status', type: 'varchar', length: 32 })
  status!: string;

  @Column({ name: 'previous_status', type: 'varchar', length: 32, nullable: true })
  previousStatus!: string | null;

  @Column({ name: 'reference_number', type: 'varchar', length: 128, nullable: true })
  referenceNumber!: string | null;

  @Column({ name: 'error_code', type: 'varchar', length: 128, nullable: true })
  errorCode!: string | null;

  @Column({ name: 'review_reason', type: 'text', nullable: true })
  reviewReason!: string | null;

  @Column({ name: 'last_source', type: 'varchar', length: 16 })
  lastSource!: PayoutSource;

  @Column({ name: 'created_at', type: Date })
  createdAt!: Date;

  @Column({ name: 'updated_at', type: Date })
  updatedAt!: Date;

  /** Reconciliation reads the oldest-checked first; null sorts first (never checked). */
  @Column({ name: 'last_checked_at', type: Date, nullable: true })
  lastCheckedAt!: Date | null;

  /** Backoff after a failed read: not checked again before this instant. */
  @Column({ name: 'next_check_at', type: Date, nullable: true })
  nextCheckAt!: Date | null;

  /** When reconciliation last read the resource by GET (list rows lack error_code and reference_number). */
  @Column({ name: 'resource_read_at', type: Date, nullable: true })
  resourceReadAt!: Date | null;

  @Column({ name: 'check_failures', type: 'integer', default: 0 })
  checkFailures!: number;

  @Column({ name: 'version', type: 'integer', default: 1 })
  version!: number;
}
