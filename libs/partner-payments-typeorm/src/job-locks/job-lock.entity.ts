import { Column, Entity, PrimaryColumn } from 'typeorm';

/**
 * One row per job (`job_locks`): who ran it last and how it ended, where a paged job stopped, and
 * on SQLite the lease that keeps other processes out while it runs. On PostgreSQL the exclusion is
 * a session advisory lock and the lease columns stay empty.
 */
@Entity({ name: 'job_locks' })
export class PartnerJobLockEntity {
  @PrimaryColumn({ name: 'name', type: 'varchar', length: 64 })
  name!: string;

  /** Who started the last run (the service's `holder`). */
  @Column({ name: 'holder', type: 'varchar', length: 128, nullable: true })
  holder!: string | null;

  @Column({ name: 'last_started_at', type: Date, nullable: true })
  lastStartedAt!: Date | null;

  @Column({ name: 'last_finished_at', type: Date, nullable: true })
  lastFinishedAt!: Date | null;

  @Column({ name: 'last_outcome', type: 'varchar', length: 16, nullable: true })
  lastOutcome!: 'ok' | 'error' | null;

  /** The last failed run's error message (at most 2000 characters). */
  @Column({ name: 'last_error', type: 'text', nullable: true })
  lastError!: string | null;

  @Column({ name: 'runs', type: 'integer', default: 0 })
  runs!: number;

  /** Free for the job: where a job that reads a list page by page stopped (JSON, say). */
  @Column({ name: 'checkpoint', type: 'text', nullable: true })
  checkpoint!: string | null;

  /** SQLite: the process holding the job's lease (the service's holder and an instance suffix). */
  @Column({ name: 'lease_holder', type: 'varchar', length: 160, nullable: true })
  leaseHolder!: string | null;

  /** SQLite: when the lease ends unless its holder renews it (every second while the job runs). */
  @Column({ name: 'lease_until', type: Date, nullable: true })
  leaseUntil!: Date | null;
}
