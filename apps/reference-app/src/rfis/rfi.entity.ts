import { Column, Entity, Index, PrimaryColumn } from 'typeorm';

/** Who last wrote an RFI row: an `rfi.*` event, a read of the RFI (after an event or an answer), or a reconciliation pass. */
export type RfiSource = 'event' | 'read' | 'reconciliation';

/**
 * Our projection of a partner RFI (evidence §7: `rfi_id, user_id, status, due_at, blocking`,
 * `resolution_reason`; spec 2.5: the parent's fields are otherwise not shown). Written by the
 * `rfi.*` handlers, by reads of the RFI and by the reconciliation job (rfis/).
 */
@Entity({ name: 'rfis' })
@Index('idx_rfis_status_due', ['status', 'dueAt'])
@Index('idx_rfis_user', ['userId'])
export class RfiEntity {
  @PrimaryColumn({ name: 'rfi_id', type: 'varchar', length: 64 })
  rfiId!: string;

  @Column({ name: 'user_id', type: 'varchar', length: 64, nullable: true })
  userId!: string | null;

  /** Lowercase as the partner sends it: pending, answered (open), resolved, not_resolved, withdrawn (evidence §7). */
  @Column({ name: 'status', type: 'varchar', length: 32 })
  status!: string;

  /** true while the RFI holds a payout or a deposit (evidence §7 `blocking`). */
  @Column({ name: 'blocking', type: 'boolean', default: false })
  blocking!: boolean;

  /** `blocking.type` (payout or deposit, as sent). */
  @Column({ name: 'blocking_type', type: 'varchar', length: 32, nullable: true })
  blockingType!: string | null;

  /** The held payout's transfer_uuid or the held deposit's virtual_account_deposit_uuid. */
  @Column({ name: 'blocking_ref', type: 'varchar', length: 64, nullable: true })
  blockingRef!: string | null;

  /** The deadline; never extended (evidence §7: on expiry the RFI closes not_resolved / expired). */
  @Column({ name: 'due_at', type: Date, nullable: true })
  dueAt!: Date | null;

  @Column({ name: 'resolution_reason', type: 'varchar', length: 32, nullable: true })
  resolutionReason!: string | null;

  /** The partner's created_at, else when the app first heard of the RFI: what the blocking alert ages. */
  @Column({ name: 'opened_at', type: Date })
  openedAt!: Date;

  /** true when an event said something the app has not read back yet (its items): the next read or pass fetches it. */
  @Column({ name: 'stale', type: 'boolean', default: true })
  stale!: boolean;

  /** When the RFI with its items was last read from the partner. */
  @Column({ name: 'read_at', type: Date, nullable: true })
  readAt!: Date | null;

  @Column({ name: 'last_source', type: 'varchar', length: 16 })
  lastSource!: RfiSource;

  @Column({ name: 'updated_at', type: Date })
  updatedAt!: Date;
}
