import { Inject, Injectable, type OnApplicationBootstrap } from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '../config/app.config';
import { ScheduledJobs } from '../scheduling/scheduled-jobs.service';
import { PAYOUT_REDRIVE_JOB, PayoutRedriveService } from './payout-redrive.service';

/**
 * The payouts feature's own scheduled job: the outbox re-drive on PAYOUT_REDRIVE_CRON, registered
 * with ScheduledJobs. The job lock (PayoutRedriveService) keeps it to one replica per tick. At
 * shutdown the pass gets the signal, stops before its next batch and is awaited, bounded, before
 * the database closes (ScheduledJobs.settle); its claimed rows are due again after the grace.
 */
@Injectable()
export class PayoutRedriveJob implements OnApplicationBootstrap {
  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly jobs: ScheduledJobs,
    private readonly redrive: PayoutRedriveService,
  ) {}

  onApplicationBootstrap(): void {
    this.jobs.add(PAYOUT_REDRIVE_JOB, this.config.redrive.cron, (tick, signal) =>
      this.redrive.runOnce({ tick, signal }),
    );
  }
}
