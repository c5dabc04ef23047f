import { Column, Entity, PrimaryColumn } from 'typeorm';

/** Projection of virtual_account.deposit_funds_received / microdeposit_funds_received (spec 6.3, 6.4.3). */
@Entity({ name: 'deposits' })
export class DepositEntity {
  @PrimaryColumn({ name: 'deposit_id', type: 'varchar', length: 64 })
  depositId!: string;

  @Column({ name: 'virtual_account_id', type: 'varchar', length: 64, nullable: true })
  virtualAccountId!: string | null;

  @Column({ name: 'user_id', type: 'varchar', length: 64, nullable: true })
  userId!: string | null;

  @Column({ name: 'amount', type: 'varchar', length: 32, nullable: true })
  amount!: string | null;

  @Column({ name: 'currency', type: 'varchar', length: 8, nullable: true })
  currency!: string | null;

  @Column({ name: 'status', type: 'varchar', length: 32, nullable: true })
  status!: string | null;

  @Column({ name: 'kind', type: 'varchar', length: 16 })
  kind!: 'deposit' | 'microdeposit';

  @Column({ name: 'payment_rail', type: 'varchar', length: 32, nullable: true })
  paymentRail!: string | null;

  @Column({ name: 'sender_name', type: 'varchar', length: 200, nullable: true })
  senderName!: string | null;

  @Column({ name: 'occurred_at', type: Date, nullable: true })
  occurredAt!: Date | null;

  @Column({ name: 'updated_at', type: Date })
  updatedAt!: Date;
}
