import { Injectable, Logger } from '@nestjs/common';
import { PartnerPaymentsClient } from '@partner-payments/nestjs';
import { PARTNER_VERSION_PIN_JOB, PartnerVersionPin } from '@partner-payments/typeorm';
import { StartupState } from '../health/startup-state.service';
import { ScheduledJobs } from './scheduled-jobs.service';

/**
 * The start-up warm-up. Every feature registers its own jobs and start passes (InboxJobs,
 * PayoutRedriveJob, ReconciliationJobs, RfiJobs); the warm-up runs those start passes without
 * knowing whose they are. @partner-payments/typeorm restores the version pin at start and
 * schedules its job (PartnerVersionPin, the `versionPin` option).
 */
@Injectable()
export class CronJobsService {
  private readonly logger = new Logger('Scheduler');

  constructor(
    private readonly jobs: ScheduledJobs,
    private readonly versionPin: PartnerVersionPin,
    private readonly partner: PartnerPaymentsClient,
    private readonly startup: StartupState,
  ) {}

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
    await this.jobs.guard('first-authentication', () => this.partner.auth.getToken());
    this.logger.log(
      `start-up partner calls (version pin, authentication) finished in ${Date.now() - started} ms`,
    );
    await passes;
    this.startup.markFinished();
  }

  /** Stops the schedules and waits, bounded, for the passes running (ScheduledJobs.settle). */
  settle(boundMs?: number): Promise<void> {
    return this.jobs.settle(boundMs);
  }
}
