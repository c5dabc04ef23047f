import {
  Inject,
  Injectable,
  Logger,
  type OnApplicationBootstrap,
  type OnApplicationShutdown,
} from '@nestjs/common';
import { SchedulerRegistry } from '@nestjs/schedule';
import { CronJob } from 'cron';
import { APP_CONFIG, type AppConfig } from '../config/app.config';
import { scheduledTick } from '../scheduling/scheduled-tick.util';
import { RFI_RECONCILIATION_JOB, RfiReconciliationService } from './rfi-reconciliation.service';
import { settleWithin } from './rfi-sync.service';

/** How long shutdown waits for a pass still running before the database closes. */
const SETTLE_BOUND_MS = 10_000;

/**
 * The RFI feature's own scheduled job (RFI_RECONCILE_CRON), registered with @nestjs/schedule's
 * SchedulerRegistry under its name like the app's other jobs. waitForCompletion: a slow pass is
 * never overlapped in this process; the job lock (RfiReconciliationService) does the same across
 * replicas, and the tick it is given lets every replica name the same firing. Stopped, and its
 * pass awaited, at shutdown: Nest shuts this module down before the root one closes the database.
 */
@Injectable()
export class RfiJobs implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('Scheduler');
  private running: Promise<void> | null = null;

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly registry: SchedulerRegistry,
    private readonly reconciliation: RfiReconciliationService,
  ) {}

  onApplicationBootstrap(): void {
    const cronTime = this.config.rfis.reconcileCron;
    const job: CronJob = CronJob.from({
      cronTime,
      name: RFI_RECONCILIATION_JOB,
      waitForCompletion: true,
      start: false,
      onTick: () => this.guard(scheduledTick(job.cronTime)),
    });
    this.registry.addCronJob(RFI_RECONCILIATION_JOB, job);
    job.start();
    this.logger.log(`job ${RFI_RECONCILIATION_JOB} scheduled: ${cronTime}`);
  }

  async onApplicationShutdown(): Promise<void> {
    if (this.registry.doesExist('cron', RFI_RECONCILIATION_JOB)) {
      void this.registry.getCronJob(RFI_RECONCILIATION_JOB).stop();
      this.registry.deleteCronJob(RFI_RECONCILIATION_JOB);
    }
    if (this.running) await settleWithin([this.running], SETTLE_BOUND_MS);
  }

  private guard(tick: Date): Promise<void> {
    const run = this.reconciliation.runOnce({ tick }).then(
      () => undefined,
      (error: Error) => this.logger.error(`job ${RFI_RECONCILIATION_JOB} failed: ${error.message}`),
    );
    this.running = run.finally(() => (this.running = null));
    return run;
  }
}
