import { Column, Entity, PrimaryColumn } from 'typeorm';

/** Projection of virtual_account.created (spec 6.3). Only the last 4 digits of an account number are kept. */
@Entity({ name: 'virtual_accounts' })
export class VirtualAccountEntity {
  @PrimaryColumn({ name: 'virtual_account_id', type: 'varchar', length: 64 })
  virtualAccountId!: string;

  @Column({ name: 'user_id', type: 'varchar', length: 64, nullable: true })
  userId!: string | null;

  /** As received (2026-04-14: rfi, approved, declined, deactivated). */
  @Column({ name: 'status', type: 'varchar', length: 32, nullable: true })
  status!: string | null;

  @Column({ name: 'bank', type: 'varchar', length: 64, nullable: true })
  bank!: string | null;

  @Column({ name: 'account_number_last4', type: 'varchar', length: 4, nullable: true })
  accountNumberLast4!: string | null;

  @Column({ name: 'metadata', type: 'text', nullable: true })
  metadata!: string | null;

  /** The time of the newest event applied, where events carry one; an older event changes nothing. */
  @Column({ name: 'event_at', type: Date, nullable: true })
  eventAt!: Date | null;

  @Column({ name: 'updated_at', type: Date })
  updatedAt!: Date;
}
