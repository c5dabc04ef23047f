import { Column, Entity, PrimaryColumn } from 'typeorm';

export type PinOutcome = 'pinned' | 'refused' | 'error';

/** What we know of the account's version pin (spec 9.3, provider-facts "versions"). One row per account. */
@Entity({ name: 'api_version_pins' })
export class ApiVersionPinEntity {
  @PrimaryColumn({ name: 'account', type: 'varchar', length: 64 })
  account!: string;

  @Column({ name: 'configured_version', type: 'varchar', length: 16 })
  configuredVersion!: string;

  @Column({ name: 'pinned_version', type: 'varchar', length: 16, nullable: true })
  pinnedVersion!: string | null;

  @Column({ name: 'previous_version', type: 'varchar', length: 16, nullable: true })
  previousVersion!: string | null;

  @Column({ name: 'last_outcome', type: 'varchar', length: 16, nullable: true })
  lastOutcome!: PinOutcome | null;

  /** A refused target is remembered so the daily job does not ask again (no retry loop). */
  @Column({ name: 'refused_target', type: 'varchar', length: 16, nullable: true })
  refusedTarget!: string | null;

  @Column({ name: 'last_error', type: 'text', nullable: true })
  lastError!: string | null;

  @Column({ name: 'pinned_at', type: Date, nullable: true })
  pinnedAt!: Date | null;

  @Column({ name: 'updated_at', type: Date })
  updatedAt!: Date;
}
