import { randomUUID } from 'node:crypto';
import type { DataSource } from 'typeorm';
import {
  resolvePartnerTypeOrmOptions,
  type PartnerPaymentsTypeOrmOptions,
  type PartnerTypeOrmResolvedOptions,
} from '../partner-payments-typeorm.options';
import { holdAdvisoryLock } from './advisory-lock.util';
import { JobLockRows } from './job-lock-rows.store';
import { holdSqliteLease } from './sqlite-lease.util';

/** What a run answers: the work's result, or why it did not run. */
export type PartnerJobRun<T> = { ran: true; result: T } | { ran: false; reason: 'locked' | 'tick-done' };

export interface PartnerRunExclusiveOptions {
  /**
   * The scheduled time of the cron tick this run serves. Replicas fire the same tick at (almost)
   * the same moment; a pass short enough to end before another replica's tick fires would let
   * that replica take the lock and run the pass again. With a tick given, a run that finds the
   * job already started for this tick (by anyone, within TICK_SKEW_MS of clock skew) skips it.
   * Runs asked for by hand give none and always run.
   */
  tick?: Date;
}

/** Clock skew tolerated between replicas when matching a tick (NTP keeps it far below). */
export const TICK_SKEW_MS = 500;

/**
 * "Each pass runs once" across replicas, for your own scheduled jobs.
 *
 * PostgreSQL: a session-level advisory lock (pg_try_advisory_lock) on a connection held for the
 * whole run. It never waits: a replica that does not get it skips this pass. If the process dies,
 * PostgreSQL drops the session and the lock with it. The connection is used every second while
 * the run lasts, so an idle-session reaper leaves it alone, and a connection ended anyway
 * (pg_terminate_backend, a failover) aborts the run's signal within about a second. Server-side
 * TCP keepalives drop the session of a host that vanished without closing its socket in about
 * 25 s. A transaction-mode pooler (PgBouncer) cannot hold a session lock: connect directly or in
 * session mode.
 * SQLite: a lease in the job's row, taken in one statement and renewed every second, so processes
 * sharing the file exclude each other; one that dies leaves a lease that lapses after
 * `sqliteLeaseMs`. A lease found taken by another when renewing aborts the run's signal.
 * Either way the job_locks row records who ran last and how it ended.
 */
export class PartnerJobLockService {
  readonly holder: string;
  private readonly options: PartnerTypeOrmResolvedOptions;
  private readonly rows: JobLockRows;
  /** This instance's name on a SQLite lease: two services with one holder name still differ. */
  private readonly leaseHolder: string;
  private readonly localLocks = new Set<string>();

  constructor(
    private readonly dataSource: DataSource,
    options: PartnerPaymentsTypeOrmOptions | PartnerTypeOrmResolvedOptions = {},
  ) {
    // Only its own options: the inbox's are resolved (and checked) by the module.
    this.options = resolvePartnerTypeOrmOptions({
      holder: options.holder,
      sqliteLeaseMs: options.sqliteLeaseMs,
    });
    this.holder = this.options.holder;
    this.rows = new JobLockRows(dataSource);
    this.leaseHolder = `${this.holder}#${randomUUID().slice(0, 8)}`;
  }

  /**
   * Runs `work` unless another replica (or this process) runs the job now. `work` gets a signal
   * that aborts when the lock is lost mid-run; a run that ends after that is recorded and thrown
   * as an error, not as a clean run, since another replica may have run the job meanwhile.
   */
  async runExclusive<T>(
    name: string,
    work: (signal: AbortSignal) => Promise<T>,
    options: PartnerRunExclusiveOptions = {},
  ): Promise<PartnerJobRun<T>> {
    const guarded = async (signal: AbortSignal): Promise<PartnerJobRun<T>> => {
      if (options.tick && (await this.startedSince(name, options.tick.getTime() - TICK_SKEW_MS)))
        return { ran: false, reason: 'tick-done' };
      const result = await this.recorded(name, async () => {
        const value = await work(signal);
        signal.throwIfAborted();
        return value;
      });
      return { ran: true, result };
    };
    return this.runLocally(name, (locked) =>
      this.rows.sql.kind === 'postgres'
        ? holdAdvisoryLock(this.dataSource, name, locked, guarded)
        : holdSqliteLease(
            this.rows,
            name,
            { holder: this.leaseHolder, leaseMs: this.options.sqliteLeaseMs },
            locked,
            guarded,
          ),
    );
  }

  /**
   * For a job whose work is itself safe on several replicas at once (its batches claimed with
   * FOR UPDATE SKIP LOCKED, say): every replica runs it, so they share the work, instead of one
   * holding a lock for the whole pass. Still one run at a time per process, and recorded.
   */
  async runShared<T>(name: string, work: () => Promise<T>): Promise<PartnerJobRun<T>> {
    return this.runLocally(name, async () => ({ ran: true, result: await this.recorded(name, work) }));
  }

  /** Whether this process currently runs the job. */
  isRunningHere(name: string): boolean {
    return this.localLocks.has(name);
  }

  private async runLocally<T>(
    name: string,
    run: (locked: PartnerJobRun<T>) => Promise<PartnerJobRun<T>>,
  ): Promise<PartnerJobRun<T>> {
    const locked: PartnerJobRun<T> = { ran: false, reason: 'locked' };
    if (this.localLocks.has(name)) return locked;
    this.localLocks.add(name);
    try {
      return await run(locked);
    } finally {
      this.localLocks.delete(name);
    }
  }

  /** Whether the job was last started at or after `sinceMs` (read under the job's lock). */
  private async startedSince(name: string, sinceMs: number): Promise<boolean> {
    const at = await this.rows.lastStartedAt(name);
    return !!at && at.getTime() >= sinceMs;
  }

  private async recorded<T>(name: string, work: () => Promise<T>): Promise<T> {
    await this.rows.recordStart(name, this.holder, new Date());
    try {
      const result = await work();
      await this.rows.recordFinish(name, 'ok', null);
      return result;
    } catch (error) {
      await this.rows.recordFinish(name, 'error', error instanceof Error ? error.message : String(error));
      throw error;
    }
  }
}
