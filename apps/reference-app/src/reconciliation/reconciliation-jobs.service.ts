import { Inject, Injectable, type OnApplicationBootstrap } from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '../config/app.config';
import { ScheduledJobs } from '../scheduling/scheduled-jobs.service';
import {
  DEPOSIT_RECONCILIATION_JOB,
  DepositReconciliationService,
} from './deposits/deposit-reconciliation.service';
import { RECONCILIATION_JOB, ReconciliationService } from './reconciliation.service';

/**
 * The reconciliation feature's own scheduled jobs, registered with ScheduledJobs: payouts on
 * RECONCILE_CRON and deposits on DEPOSIT_RECONCILE_CRON (spec 6.4.8: a hold's outcome may never
 * arrive as an event). Both are given the tick they serve, so replicas name the same one: the
 * payout replicas join one shared pass per tick, the deposit pass runs under its job lock on one
 * replica. Shutdown waits for a running pass, bounded (ScheduledJobs.settle).
 */
@Injectable()
export class ReconciliationJobs implements OnApplicationBootstrap {
  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly jobs: ScheduledJobs,
    private readonly reconciliation: ReconciliationService,
    private readonly deposits: DepositReconciliationService,
  ) {}

  onApplicationBootstrap(): void {
    this.jobs.add(RECONCILIATION_JOB, this.config.reconcile.cron, (tick) =>
      this.reconciliation.runOnce({ tick }),
    );
    this.jobs.add(DEPOSIT_RECONCILIATION_JOB, this.config.depositReconcileCron, (tick) =>
      this.deposits.runOnce({ tick }),
    );
  }
}
