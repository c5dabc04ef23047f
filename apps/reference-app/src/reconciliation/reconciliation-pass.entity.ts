import { Column, Entity, PrimaryColumn } from 'typeorm';

/**
 * The reconciliation pass in progress for one job, shared by every replica: replicas
 * that start while it is open join it instead of running their own, take list pages from
 * `next_page` one at a time and claim payouts row by row, so each payout is checked once per pass.
 */
@Entity({ name: 'reconciliation_passes' })
export class ReconciliationPassEntity {
  @PrimaryColumn({ name: 'job', type: 'varchar', length: 64 })
  job!: string;

  @Column({ name: 'pass_id', type: 'varchar', length: 36, nullable: true })
  passId!: string | null;

  /** The cron tick the pass serves (null: started by hand). */
  @Column({ name: 'tick', type: Date, nullable: true })
  tick!: Date | null;

  /** Payouts checked at or after this instant count as checked in this pass. */
  @Column({ name: 'started_at', type: Date, nullable: true })
  startedAt!: Date | null;

  /** Moved by every page or batch taken (for operators: when the pass last made progress). */
  @Column({ name: 'heartbeat_at', type: Date, nullable: true })
  heartbeatAt!: Date | null;

  @Column({ name: 'finished_at', type: Date, nullable: true })
  finishedAt!: Date | null;

  /** The list's `from_date` for this pass (YYYY-MM-DD); null: the pass reads no list. */
  @Column({ name: 'from_date', type: 'varchar', length: 10, nullable: true })
  fromDate!: string | null;

  @Column({ name: 'next_page', type: 'integer', default: 1 })
  nextPage!: number;

  @Column({ name: 'pages_in_flight', type: 'integer', default: 0 })
  pagesInFlight!: number;

  /** 1 once a replica found the end of the list. */
  @Column({ name: 'list_done', type: 'integer', default: 0 })
  listDone!: number;
}
