import { Inject, Injectable, type OnApplicationBootstrap } from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '../config/app.config';
import { ScheduledJobs } from '../scheduling/scheduled-jobs.service';
import { RFI_RECONCILIATION_JOB, RfiReconciliationService } from './rfi-reconciliation.service';

/**
 * The RFI feature's own scheduled job (RFI_RECONCILE_CRON), registered with ScheduledJobs like
 * every feature's jobs. The job lock (RfiReconciliationService) keeps it to one replica per tick,
 * the tick it is given lets every replica name the same firing, and shutdown waits for its pass,
 * bounded, before the database closes (ScheduledJobs.settle).
 */
@Injectable()
export class RfiJobs implements OnApplicationBootstrap {
  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly jobs: ScheduledJobs,
    private readonly reconciliation: RfiReconciliationService,
  ) {}

  onApplicationBootstrap(): void {
    this.jobs.add(RFI_RECONCILIATION_JOB, this.config.rfis.reconcileCron, (tick) =>
      this.reconciliation.runOnce({ tick }),
    );
  }
}
