import { Injectable, Logger, type BeforeApplicationShutdown } from '@nestjs/common';
import { SchedulerRegistry } from '@nestjs/schedule';
import { CronJob } from 'cron';
import { partnerScheduledTick } from '@partner-payments/typeorm';

/** How long shutdown waits for scheduled passes still running before closing the database. */
const SETTLE_BOUND_MS = 10_000;

/** A job's pass: `signal` is aborted when the app shuts down; a pass stops at its next safe point. */
export type JobPass = (signal: AbortSignal) => Promise<unknown>;

/**
 * Where each feature registers its own jobs (no central list importing every feature): cron jobs
 * in @nestjs/schedule's SchedulerRegistry under their names (the expressions come from validated
 * configuration, which a static @Cron() cannot read), and passes to run once at start, after the
 * port is open. waitForCompletion: a slow pass is never overlapped by the next tick of the same
 * process; the job lock does the same across replicas. Every pass is tracked and given the
 * shutdown signal, so shutdown can tell the running ones to stop and wait for them (settle)
 * before the database closes.
 */
@Injectable()
export class ScheduledJobs implements BeforeApplicationShutdown {
  private readonly logger = new Logger('Scheduler');
  /** Passes in progress (scheduled ticks and the start-up ones), for settle(). */
  private readonly running = new Set<Promise<void>>();
  private readonly names = new Set<string>();
  private readonly startPasses: Array<{ name: string; task: JobPass }> = [];
  private readonly shutdown = new AbortController();

  constructor(private readonly registry: SchedulerRegistry) {}

  /**
   * `task` gets the tick it serves: the scheduled time the cron fired for (partnerScheduledTick), however
   * late its timer fired, so every replica names the same tick and the job lock runs it once;
   * and the shutdown signal (JobPass).
   */
  add(name: string, cronTime: string, task: (tick: Date, signal: AbortSignal) => Promise<unknown>): void {
    const job: CronJob = CronJob.from({
      cronTime,
      name,
      waitForCompletion: true,
      start: false,
      onTick: () => this.guard(name, (signal) => task(partnerScheduledTick(job.cronTime), signal)),
    });
    this.registry.addCronJob(name, job);
    this.names.add(name);
    job.start();
    this.logger.log(`job ${name} scheduled: ${cronTime}`);
  }

  /** A pass to run once at start (runStartPasses), beside the start-up partner calls. */
  addStartPass(name: string, task: JobPass): void {
    this.startPasses.push({ name, task });
  }

  /** Runs the start passes at once; settles when all have ended (each logs its own failure). */
  async runStartPasses(): Promise<void> {
    await Promise.all(this.startPasses.map(({ name, task }) => this.guard(name, task)));
  }

  /**
   * Runs a pass, logs its failure, and keeps it in `running` until it ends (settle waits for it).
   * A pass that fails once shutdown has told it to stop is logged as stopped, not as failed: its
   * work is due again at the next start.
   */
  guard(name: string, task: JobPass): Promise<void> {
    const { signal } = this.shutdown;
    const run = (async () => {
      try {
        await task(signal);
      } catch (error) {
        if (signal.aborted) this.logger.log(`job ${name} stopped by shutdown: ${(error as Error).message}`);
        else this.logger.error(`job ${name} failed: ${(error as Error).message}`);
      }
    })();
    this.running.add(run);
    void run.finally(() => this.running.delete(run));
    return run;
  }

  /** Stops and removes every schedule registered here. */
  stop(): void {
    for (const name of this.names) {
      if (this.registry.doesExist('cron', name)) {
        void this.registry.getCronJob(name).stop();
        this.registry.deleteCronJob(name);
      }
    }
  }

  /**
   * First of Nest's shutdown hooks: no tick starts any more, and the running passes are told to
   * stop (the signal) while the rest of the app shuts down; settle() then waits for them.
   */
  beforeApplicationShutdown(): void {
    this.stop();
    this.shutdown.abort();
  }

  /**
   * Stops the schedules, aborts the shutdown signal and waits for the passes already running (the
   * start-up drain, a cron tick) for up to `boundMs`, so the database is not closed under a
   * transaction still in flight: a pass that takes the signal (the payout re-drive) stops before
   * its next batch, the batch in hand commits; the inbox drain stops the same way on its own
   * abort. A pass that runs past the bound (a reconciliation pass takes no signal) is left to
   * fail as the database closes; its work is repeated at the next start. ShutdownCoordinator
   * calls it before closing.
   */
  async settle(boundMs = SETTLE_BOUND_MS): Promise<void> {
    this.beforeApplicationShutdown();
    let timer: NodeJS.Timeout | undefined;
    const bound = new Promise<'bound'>((resolve) => {
      timer = setTimeout(() => resolve('bound'), boundMs);
    });
    try {
      while (this.running.size > 0) {
        const outcome = await Promise.race([Promise.allSettled([...this.running]), bound]);
        if (outcome === 'bound') {
          this.logger.warn(
            `shutdown: ${this.running.size} scheduled pass(es) still running after ${boundMs} ms; closing anyway (their work is repeated at the next start)`,
          );
          return;
        }
      }
    } finally {
      clearTimeout(timer);
    }
  }
}
