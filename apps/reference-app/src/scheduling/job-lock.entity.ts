import { Column, Entity, PrimaryColumn } from 'typeorm';

/**
 * One row per scheduled job: who ran it last and how it ended. The exclusion itself is a
 * PostgreSQL advisory lock (or an in-process lock on SQLite); this row makes runs visible.
 */
@Entity({ name: 'job_locks' })
export class JobLockEntity {
  @PrimaryColumn({ name: 'name', type: 'varchar', length: 64 })
  name!: string;

  @Column({ name: 'holder', type: 'varchar', length: 128, nullable: true })
  holder!: string | null;

  @Column({ name: 'last_started_at', type: Date, nullable: true })
  lastStartedAt!: Date | null;

  @Column({ name: 'last_finished_at', type: Date, nullable: true })
  lastFinishedAt!: Date | null;

  @Column({ name: 'last_outcome', type: 'varchar', length: 16, nullable: true })
  lastOutcome!: 'ok' | 'error' | null;

  @Column({ name: 'last_error', type: 'text', nullable: true })
  lastError!: string | null;

  @Column({ name: 'runs', type: 'integer', default: 0 })
  runs!: number;

  /** Where a job that reads the partner page by page stopped (JSON; deposit reconciliation). */
  @Column({ name: 'checkpoint', type: 'text', nullable: true })
  checkpoint!: string | null;
}
