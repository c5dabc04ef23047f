import { Column, Entity, PrimaryColumn } from 'typeorm';

/** Projection of user.* events (spec 6.3, provider-facts "Users"). */
@Entity({ name: 'partner_users' })
export class PartnerUserEntity {
  @PrimaryColumn({ name: 'user_id', type: 'varchar', length: 64 })
  userId!: string;

  /** UPPERCASE: CREATED, VERIFYING, VERIFIED, REJECTED, or anything newer (kept as received). */
  @Column({ name: 'status', type: 'varchar', length: 32, nullable: true })
  status!: string | null;

  @Column({ name: 'previous_status', type: 'varchar', length: 32, nullable: true })
  previousStatus!: string | null;

  /** JSON of the declined-verification reasons (user.verification.failed). */
  @Column({ name: 'rejection_reasons', type: 'text', nullable: true })
  rejectionReasons!: string | null;

  @Column({ name: 'liveness_result', type: 'varchar', length: 64, nullable: true })
  livenessResult!: string | null;

  /** JSON; only user.created echoes metadata (spec 6.4.1). */
  @Column({ name: 'metadata', type: 'text', nullable: true })
  metadata!: string | null;

  @Column({ name: 'last_event_name', type: 'varchar', length: 200 })
  lastEventName!: string;

  /** The time of the newest event applied, where events carry one; an older event changes nothing. */
  @Column({ name: 'event_at', type: Date, nullable: true })
  eventAt!: Date | null;

  @Column({ name: 'updated_at', type: Date })
  updatedAt!: Date;
}
