import { Injectable, Logger } from '@nestjs/common';
import { SchedulerRegistry } from '@nestjs/schedule';
import { CronJob } from 'cron';
import { scheduledTick } from './scheduled-tick.util';

/** How long shutdown waits for scheduled passes still running before closing the database. */
const SETTLE_BOUND_MS = 10_000;

/**
 * Where each feature registers its own jobs (no central list importing every feature): cron jobs
 * in @nestjs/schedule's SchedulerRegistry under their names (the expressions come from validated
 * configuration, which a static @Cron() cannot read), and passes to run once at start, after the
 * port is open. waitForCompletion: a slow pass is never overlapped by the next tick of the same
 * process; the job lock does the same across replicas. Every pass is tracked, so shutdown can
 * wait for the ones running (settle) before the database closes.
 */
@Injectable()
export class ScheduledJobs {
  private readonly logger = new Logger('Scheduler');
  /** Passes in progress (scheduled ticks and the start-up ones), for settle(). */
  private readonly running = new Set<Promise<void>>();
  private readonly names = new Set<string>();
  private readonly startPasses: Array<{ name: string; task: () => Promise<unknown> }> = [];

  constructor(private readonly registry: SchedulerRegistry) {}

  /**
   * `task` gets the tick it serves: the scheduled time the cron fired for (scheduledTick), however
   * late its timer fired, so every replica names the same tick and the job lock runs it once.
   */
  add(name: string, cronTime: string, task: (tick: Date) => Promise<unknown>): void {
    const job: CronJob = CronJob.from({
      cronTime,
      name,
      waitForCompletion: true,
      start: false,
      onTick: () => this.guard(name, () => task(scheduledTick(job.cronTime))),
    });
    this.registry.addCronJob(name, job);
    this.names.add(name);
    job.start();
    this.logger.log(`job ${name} scheduled: ${cronTime}`);
  }

  /** A pass to run once at start (runStartPasses), beside the start-up partner calls. */
  addStartPass(name: string, task: () => Promise<unknown>): void {
    this.startPasses.push({ name, task });
  }

  /** Runs the start passes at once; settles when all have ended (each logs its own failure). */
  async runStartPasses(): Promise<void> {
    await Promise.all(this.startPasses.map(({ name, task }) => this.guard(name, task)));
  }

  /** Runs a pass, logs its failure, and keeps it in `running` until it ends (settle waits for it). */
  guard(name: string, task: () => Promise<unknown>): Promise<void> {
    const run = (async () => {
      try {
        await task();
      } catch (error) {
        this.logger.error(`job ${name} failed: ${(error as Error).message}`);
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
   * Stops the schedules and waits for the passes already running (the start-up drain, a cron
   * tick) for up to `boundMs`, so the database is not closed under a transaction still in flight:
   * the redelivery pass stops before its next batch (its abort), the batch in hand commits. A pass
   * that runs past the bound (a reconciliation pass has no abort) is left to fail as the database
   * closes; its work is repeated at the next start. ShutdownCoordinator calls it before closing.
   */
  async settle(boundMs = SETTLE_BOUND_MS): Promise<void> {
    this.stop();
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
