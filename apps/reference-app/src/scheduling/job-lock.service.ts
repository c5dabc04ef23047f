import { hostname } from 'node:os';
import { advisoryLockKey } from '../database/advisory-lock.util';
import { JobLockEntity } from './job-lock.entity';
import { insertIfAbsent } from '../database/insert-if-absent.util';
import type { UnitOfWork } from '../database/unit-of-work.service';

export type JobRun<T> = { ran: true; result: T } | { ran: false; reason: 'locked' | 'tick-done' };

export interface RunExclusiveOptions {
  /**
   * The scheduled time of the cron tick this run serves. Replicas fire the same tick at (almost)
   * the same moment; a pass short enough to end before another replica's tick fires would let
   * that replica take the lock and run the pass again. With a tick given, a run that finds the
   * job already started for this tick (by anyone, within TICK_SKEW_MS of clock skew) skips it.
   * Runs asked for by hand (the endpoints) give none and always run.
   */
  tick?: Date;
}

/** Clock skew tolerated between replicas when matching a tick (NTP keeps it far below). */
export const TICK_SKEW_MS = 500;

/**
 * How often the connection holding a job's advisory lock is used while the pass runs. A session
 * left idle for the whole pass is what idle_session_timeout, a pooler or an operator's
 * pg_terminate_backend drops, and its lock with it, while the pass goes on: another replica then
 * runs the job at the same time. The heartbeat keeps the session from looking idle and notices its
 * loss within this period; the pass is then aborted (its AbortSignal).
 */
export const LOCK_HEARTBEAT_MS = 1_000;

/**
 * Server-side keepalive on a connection that holds a lock for a pass: when the holder's host
 * vanishes without FIN/RST, the server drops the session (and the lock) after about
 * 10 + 5 * 3 = 25 s, instead of the kernel default of 7200 + 9 * 75 s (2 h 11 min).
 */
export const HOLDER_KEEPALIVE_SQL =
  'SET tcp_keepalives_idle = 10; SET tcp_keepalives_interval = 5; SET tcp_keepalives_count = 3';

const NEVER_ABORTED = new AbortController().signal;

/** TypeORM's PostgreSQL query runner: released with an error, pg-pool closes the connection. */
interface PgQueryRunner {
  releasePostgresConnection(error?: Error): Promise<void>;
}

/**
 * Uses `runner`'s connection every LOCK_HEARTBEAT_MS until stopped (one query at a time: a probe
 * still waiting on a silent network is not queued behind), and reports the first failure. Answers
 * the stop function.
 */
export function keepBusy(
  runner: { query(sql: string): Promise<unknown> },
  onLost: (error: Error) => void,
): () => void {
  let inFlight = false;
  const timer = setInterval(() => {
    if (inFlight) return;
    inFlight = true;
    runner.query('SELECT 1').then(
      () => (inFlight = false),
      (error: unknown) => {
        inFlight = false;
        onLost(error instanceof Error ? error : new Error(String(error)));
      },
    );
  }, LOCK_HEARTBEAT_MS);
  return () => clearInterval(timer);
}

/**
 * "Each pass runs once" across replicas (issue: cron jobs take a lock on PostgreSQL).
 *
 * PostgreSQL: a session-level advisory lock (pg_try_advisory_lock) on a connection held for the
 * whole run. It never waits: a replica that does not get it skips this pass. If the process dies,
 * PostgreSQL drops the session and the lock with it. The connection is used every second while
 * the run lasts (keepBusy), so an idle-session reaper (idle_session_timeout) leaves it alone, and a
 * connection ended anyway (pg_terminate_backend, a failover) aborts the run's signal within about a
 * second: the work stops at its next page or batch and the run is recorded as failed. Server-side
 * TCP keepalives drop the session of a host that vanished without closing its socket in about
 * 25 s. A transaction-mode pooler (PgBouncer) cannot hold a session lock: connect directly or in
 * session mode.
 * SQLite: the app runs as one process on the file, so an in-process lock is the whole story.
 * Either way the job_locks row records who ran last and how it ended.
 */
export class JobLockService {
  private readonly localLocks = new Set<string>();

  constructor(
    private readonly uow: UnitOfWork,
    readonly holder: string = `${hostname()}:${process.pid}`,
  ) {}

  async runExclusive<T>(
    name: string,
    work: (signal: AbortSignal) => Promise<T>,
    options: RunExclusiveOptions = {},
  ): Promise<JobRun<T>> {
    const guarded = async (signal: AbortSignal): Promise<JobRun<T>> => {
      if (options.tick && (await this.startedSince(name, options.tick.getTime() - TICK_SKEW_MS)))
        return { ran: false, reason: 'tick-done' };
      // A run that ends after its lock was lost is recorded and thrown as the error it is, not as a
      // clean run: another replica may have run the job meanwhile.
      const result = await this.recorded(name, async () => {
        const value = await work(signal);
        signal.throwIfAborted();
        return value;
      });
      return { ran: true, result };
    };
    return this.uow.kind === 'postgres'
      ? this.runWithAdvisoryLock(name, guarded)
      : this.runWithLocalLock(name, guarded);
  }

  /**
   * For a job whose work is itself safe on several replicas at once (the inbox redelivery claims
   * its batches with FOR UPDATE SKIP LOCKED, issue 14): every replica runs it, so they share the
   * work, instead of one holding a lock for the whole pass. Still one run at a time per process,
   * and recorded in job_locks like the others.
   */
  async runShared<T>(name: string, work: () => Promise<T>): Promise<JobRun<T>> {
    return this.runWithLocalLock(name, async () => ({ ran: true, result: await this.recorded(name, work) }));
  }

  /** Whether this process currently runs the job (any database). */
  isRunningHere(name: string): boolean {
    return this.localLocks.has(name);
  }

  private async runWithLocalLock<T>(
    name: string,
    run: (signal: AbortSignal) => Promise<JobRun<T>>,
  ): Promise<JobRun<T>> {
    if (this.localLocks.has(name)) return { ran: false, reason: 'locked' };
    this.localLocks.add(name);
    try {
      return await run(NEVER_ABORTED);
    } finally {
      this.localLocks.delete(name);
    }
  }

  private async runWithAdvisoryLock<T>(
    name: string,
    run: (signal: AbortSignal) => Promise<JobRun<T>>,
  ): Promise<JobRun<T>> {
    if (this.localLocks.has(name)) return { ran: false, reason: 'locked' };
    const runner = this.uow.dataSource.createQueryRunner();
    await runner.connect();
    /** Set when the unlock failed: the connection is then closed, not pooled, so its lock ends with it. */
    let unlockError: Error | undefined;
    try {
      await runner.query(HOLDER_KEEPALIVE_SQL);
      const key = advisoryLockKey(name);
      const [row]: Array<{ locked: boolean }> = await runner.query(
        'SELECT pg_try_advisory_lock($1::bigint) AS locked',
        [key],
      );
      if (!row?.locked) return { ran: false, reason: 'locked' };
      this.localLocks.add(name);
      const lost = new AbortController();
      const stop = keepBusy(runner, (error) => {
        if (!lost.signal.aborted)
          lost.abort(
            new Error(
              `job ${name}: the connection holding its lock was lost (${error.message}); pass aborted`,
            ),
          );
      });
      try {
        return await run(lost.signal);
      } finally {
        stop();
        this.localLocks.delete(name);
        // Always unlocked, even after a lost heartbeat: a probe can fail (a cancelled statement)
        // while the session and its lock live on, and a pooled session still holding it would keep
        // the job locked on every replica. If the unlock fails too, the session is closed instead.
        unlockError = await runner.query('SELECT pg_advisory_unlock($1::bigint)', [key]).then(
          () => undefined,
          (error: unknown) => (error instanceof Error ? error : new Error(String(error))),
        );
      }
    } finally {
      if (unlockError) await (runner as unknown as PgQueryRunner).releasePostgresConnection(unlockError);
      else await runner.release();
    }
  }

  /** Whether the job was last started at or after `sinceMs` (read under the job's lock). */
  private async startedSince(name: string, sinceMs: number): Promise<boolean> {
    const row = await this.uow.run((m) => m.findOne(JobLockEntity, { where: { name } }));
    return !!row?.lastStartedAt && row.lastStartedAt.getTime() >= sinceMs;
  }

  private async recorded<T>(name: string, work: () => Promise<T>): Promise<T> {
    const startedAt = new Date();
    await this.uow.run(async (m) => {
      await insertIfAbsent(m, this.uow.kind, 'job_locks', 'name', { name, runs: 0 });
      await m.update(JobLockEntity, { name }, { holder: this.holder, lastStartedAt: startedAt });
    });
    try {
      const result = await work();
      await this.finish(name, 'ok', null);
      return result;
    } catch (error) {
      await this.finish(name, 'error', (error as Error).message ?? String(error));
      throw error;
    }
  }

  private async finish(name: string, outcome: 'ok' | 'error', error: string | null): Promise<void> {
    await this.uow.run((m) =>
      m
        .createQueryBuilder()
        .update(JobLockEntity)
        .set({
          lastFinishedAt: new Date(),
          lastOutcome: outcome,
          lastError: error?.slice(0, 2000) ?? null,
          runs: () => 'runs + 1',
        })
        .where('name = :name', { name })
        .execute(),
    );
  }
}
