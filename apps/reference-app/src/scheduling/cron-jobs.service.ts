import {
  Inject,
  Injectable,
  Logger,
  type OnApplicationBootstrap,
  type OnApplicationShutdown,
} from '@nestjs/common';
import { PartnerTokenManager } from '@partner-payments/nestjs';
import { PARTNER_VERSION_PIN_JOB, PartnerVersionPin } from '@partner-payments/typeorm';
import { APP_CONFIG, type AppConfig } from '../config/app.config';
import { StartupState } from '../health/startup-state.service';
import { RECONCILIATION_JOB, ReconciliationService } from '../reconciliation/reconciliation.service';
import {
  DEPOSIT_RECONCILIATION_JOB,
  DepositReconciliationService,
} from '../reconciliation/deposits/deposit-reconciliation.service';
import { ScheduledJobs } from './scheduled-jobs.service';

/**
 * The reconciliation jobs, registered with ScheduledJobs, and the start-up warm-up. The webhooks
 * feature registers its inbox jobs itself (InboxJobs); @partner-payments/typeorm restores the
 * version pin at start and schedules its job (PartnerVersionPin, the `versionPin` option).
 */
@Injectable()
export class CronJobsService implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('Scheduler');

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly jobs: ScheduledJobs,
    private readonly reconciliation: ReconciliationService,
    private readonly depositReconciliation: DepositReconciliationService,
    private readonly versionPin: PartnerVersionPin,
    private readonly tokens: PartnerTokenManager,
    private readonly startup: StartupState,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    this.jobs.add(RECONCILIATION_JOB, this.config.reconcile.cron, (tick) =>
      this.reconciliation.runOnce({ tick }),
    );
    this.jobs.add(DEPOSIT_RECONCILIATION_JOB, this.config.depositReconcileCron, (tick) =>
      this.depositReconciliation.runOnce({ tick }),
    );
  }

  /**
   * Called once the port is open (app-bootstrap.util.ts), never awaited there. Pins the version
   * (at start and daily) and authenticates once, so a slow or absent partner does not keep the
   * port closed while webhooks arrive. A partner outage does not stop anything: both log and the
   * pin tries again on its schedule. The features' start passes (the inbox's drain of what a crash
   * left unprocessed) run beside them: a large backlog must not keep the port closed either.
   * GET /health/ready says `startup.state: starting` until all have finished once.
   */
  async warmUp(): Promise<void> {
    const started = Date.now();
    const passes = this.jobs.runStartPasses();
    await this.jobs.guard(PARTNER_VERSION_PIN_JOB, () => this.versionPin.pin());
    await this.jobs.guard('first-authentication', () => this.tokens.getToken());
    this.logger.log(
      `start-up partner calls (version pin, authentication) finished in ${Date.now() - started} ms`,
    );
    await passes;
    this.startup.markFinished();
  }

  onApplicationShutdown(): void {
    this.jobs.stop();
  }

  /** Stops the schedules and waits, bounded, for the passes running (ScheduledJobs.settle). */
  settle(boundMs?: number): Promise<void> {
    return this.jobs.settle(boundMs);
  }
}
