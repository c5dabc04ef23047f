import { Column, Entity, PrimaryColumn } from 'typeorm';

/** What the last pin run ended with. */
export type PartnerVersionPinOutcome = 'pinned' | 'refused' | 'error';

/**
 * What is known of the account's version pin (spec 9.3): one row per account, keyed by
 * partnerVersionPinKey (a digest, never the identifier). The table is the one the reference app
 * created under this name and shape, so its rows carry over as they are.
 */
@Entity({ name: 'api_version_pins' })
export class PartnerVersionPinEntity {
  @PrimaryColumn({ name: 'account', type: 'varchar', length: 64 })
  account!: string;

  @Column({ name: 'configured_version', type: 'varchar', length: 16 })
  configuredVersion!: string;

  @Column({ name: 'pinned_version', type: 'varchar', length: 16, nullable: true })
  pinnedVersion!: string | null;

  @Column({ name: 'previous_version', type: 'varchar', length: 16, nullable: true })
  previousVersion!: string | null;

  @Column({ name: 'last_outcome', type: 'varchar', length: 16, nullable: true })
  lastOutcome!: PartnerVersionPinOutcome | null;

  /** A refused target is remembered so the scheduled job does not ask again (no retry loop). */
  @Column({ name: 'refused_target', type: 'varchar', length: 16, nullable: true })
  refusedTarget!: string | null;

  @Column({ name: 'last_error', type: 'text', nullable: true })
  lastError!: string | null;

  @Column({ name: 'pinned_at', type: Date, nullable: true })
  pinnedAt!: Date | null;

  @Column({ name: 'updated_at', type: Date })
  updatedAt!: Date;
}
