import {
  Inject,
  Injectable,
  Logger,
  type BeforeApplicationShutdown,
  type OnApplicationBootstrap,
} from '@nestjs/common';
import { SchedulerRegistry } from '@nestjs/schedule';
import { CronJob } from 'cron';
import { APP_CONFIG, type AppConfig } from '../config/app.config';
import { scheduledTick } from '../scheduling/scheduled-tick.util';
import { PAYOUT_REDRIVE_JOB, PayoutRedriveService } from './payout-redrive.service';

/** How long shutdown waits for a pass still running before the database closes. */
const SETTLE_BOUND_MS = 10_000;

/**
 * The payouts feature's own scheduled job: the outbox re-drive on PAYOUT_REDRIVE_CRON, registered
 * with @nestjs/schedule's SchedulerRegistry (the expression comes from validated configuration,
 * which a static @Cron() cannot read). waitForCompletion: a slow pass is never overlapped by the
 * next tick of this process; the job lock does the same across replicas. Before the database
 * closes (ShutdownCoordinator runs at onApplicationShutdown, after this hook), the schedule stops
 * and a running pass is aborted before its next batch and awaited, bounded.
 */
@Injectable()
export class PayoutRedriveJob implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger('Scheduler');
  private readonly stop = new AbortController();
  private running: Promise<void> | null = null;

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly registry: SchedulerRegistry,
    private readonly redrive: PayoutRedriveService,
  ) {}

  onApplicationBootstrap(): void {
    const job: CronJob = CronJob.from({
      cronTime: this.config.redrive.cron,
      name: PAYOUT_REDRIVE_JOB,
      waitForCompletion: true,
      start: false,
      onTick: () => this.tick(scheduledTick(job.cronTime)),
    });
    this.registry.addCronJob(PAYOUT_REDRIVE_JOB, job);
    job.start();
    this.logger.log(`job ${PAYOUT_REDRIVE_JOB} scheduled: ${this.config.redrive.cron}`);
  }

  async beforeApplicationShutdown(): Promise<void> {
    if (this.registry.doesExist('cron', PAYOUT_REDRIVE_JOB)) {
      void this.registry.getCronJob(PAYOUT_REDRIVE_JOB).stop();
      this.registry.deleteCronJob(PAYOUT_REDRIVE_JOB);
    }
    this.stop.abort();
    if (!this.running) return;
    let timer: NodeJS.Timeout | undefined;
    const bound = new Promise<'bound'>(
      (resolve) => (timer = setTimeout(() => resolve('bound'), SETTLE_BOUND_MS)),
    );
    try {
      if ((await Promise.race([this.running, bound])) === 'bound')
        this.logger.warn(
          `shutdown: ${PAYOUT_REDRIVE_JOB} still running after ${SETTLE_BOUND_MS} ms; closing anyway (its claimed rows are due again after the grace)`,
        );
    } finally {
      clearTimeout(timer);
    }
  }

  /** One scheduled pass; its failure is logged (the next tick tries again). */
  private tick(tick: Date): Promise<void> {
    const run = this.redrive
      .runOnce({ tick, signal: this.stop.signal })
      .then(() => undefined)
      .catch((error: unknown) => {
        if (!this.stop.signal.aborted)
          this.logger.error(`job ${PAYOUT_REDRIVE_JOB} failed: ${(error as Error).message}`);
      });
    this.running = run;
    void run.finally(() => {
      if (this.running === run) this.running = null;
    });
    return run;
  }
}
