import { createHash } from 'node:crypto';
import { hostname } from 'node:os';
import { JobLockEntity } from '../database/entities';
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
 * "Each pass runs once" across replicas (issue: cron jobs take a lock on PostgreSQL).
 *
 * PostgreSQL: a session-level advisory lock (pg_try_advisory_lock) on a connection held for the
 * whole run. It never waits: a replica that does not get it skips this pass. If the process dies,
 * PostgreSQL drops the session and the lock with it, so no lease or expiry is needed.
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
    work: () => Promise<T>,
    options: RunExclusiveOptions = {},
  ): Promise<JobRun<T>> {
    const guarded = async (): Promise<JobRun<T>> => {
      if (options.tick && (await this.startedSince(name, options.tick.getTime() - TICK_SKEW_MS)))
        return { ran: false, reason: 'tick-done' };
      return { ran: true, result: await this.recorded(name, work) };
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

  private async runWithLocalLock<T>(name: string, run: () => Promise<JobRun<T>>): Promise<JobRun<T>> {
    if (this.localLocks.has(name)) return { ran: false, reason: 'locked' };
    this.localLocks.add(name);
    try {
      return await run();
    } finally {
      this.localLocks.delete(name);
    }
  }

  private async runWithAdvisoryLock<T>(name: string, run: () => Promise<JobRun<T>>): Promise<JobRun<T>> {
    if (this.localLocks.has(name)) return { ran: false, reason: 'locked' };
    const runner = this.uow.dataSource.createQueryRunner();
    await runner.connect();
    try {
      const key = advisoryLockKey(name);
      const [row]: Array<{ locked: boolean }> = await runner.query(
        'SELECT pg_try_advisory_lock($1::bigint) AS locked',
        [key],
      );
      if (!row?.locked) return { ran: false, reason: 'locked' };
      this.localLocks.add(name);
      try {
        return await run();
      } finally {
        this.localLocks.delete(name);
        await runner.query('SELECT pg_advisory_unlock($1::bigint)', [key]);
      }
    } finally {
      await runner.release();
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

/** A stable signed 64-bit key per job name, namespaced so other apps on the database do not collide. */
export function advisoryLockKey(name: string): string {
  return createHash('sha256')
    .update(`partner-payments-reference-app:${name}`)
    .digest()
    .readBigInt64BE(0)
    .toString();
}
