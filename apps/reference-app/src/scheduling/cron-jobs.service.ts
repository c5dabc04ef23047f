import {
  Inject,
  Injectable,
  Logger,
  type OnApplicationBootstrap,
  type OnApplicationShutdown,
} from '@nestjs/common';
import { SchedulerRegistry } from '@nestjs/schedule';
import { PartnerTokenManager } from '@partner-payments/nestjs';
import { CronJob } from 'cron';
import { APP_CONFIG, type AppConfig } from '../config/app.config';
import { StartupState } from '../health/startup-state.service';
import { scheduledTick } from './scheduled-tick.util';
import { RECONCILIATION_JOB, ReconciliationService } from '../reconciliation/reconciliation.service';
import {
  DEPOSIT_RECONCILIATION_JOB,
  DepositReconciliationService,
} from '../reconciliation/deposits/deposit-reconciliation.service';
import { VERSION_PIN_JOB, VersionPinService } from '../versioning/version-pin.service';
import { INBOX_PRUNE_JOB, InboxAtRestService } from '../webhooks/inbox-at-rest.service';
import { INBOX_REDELIVERY_JOB, InboxRedeliveryService } from '../webhooks/inbox-redelivery.service';

/** How long shutdown waits for scheduled passes still running before closing the database. */
const SETTLE_BOUND_MS = 10_000;

/**
 * The scheduled jobs, registered with @nestjs/schedule's SchedulerRegistry under their
 * names (the expressions come from validated configuration, which a static @Cron() cannot read).
 * waitForCompletion: a slow pass is never overlapped by the next tick of the same process; the
 * job lock does the same across replicas.
 */
@Injectable()
export class CronJobsService implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('Scheduler');
  /** Passes in progress (scheduled ticks and the start-up ones), for settle(). */
  private readonly running = new Set<Promise<void>>();

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly registry: SchedulerRegistry,
    private readonly reconciliation: ReconciliationService,
    private readonly depositReconciliation: DepositReconciliationService,
    private readonly redelivery: InboxRedeliveryService,
    private readonly versionPin: VersionPinService,
    private readonly tokens: PartnerTokenManager,
    private readonly startup: StartupState,
    private readonly inboxAtRest: InboxAtRestService,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    await this.versionPin.restore();
    this.add(RECONCILIATION_JOB, this.config.reconcile.cron, (tick) => this.reconciliation.runOnce({ tick }));
    this.add(DEPOSIT_RECONCILIATION_JOB, this.config.depositReconcileCron, (tick) =>
      this.depositReconciliation.runOnce({ tick }),
    );
    // Every replica runs it: its batches are claimed (SKIP LOCKED), so replicas share the work.
    this.add(INBOX_REDELIVERY_JOB, this.config.inbox.redeliveryCron, () => this.redelivery.runOnce());
    this.add(VERSION_PIN_JOB, this.config.versionPinCron, (tick) => this.versionPin.pin({ tick }));
    this.add(INBOX_PRUNE_JOB, this.config.inbox.pruneCron, (tick) => this.inboxAtRest.prune({ tick }));
  }

  /**
   * Issue 9 defect 7: called once the port is open (app-bootstrap.util.ts), never awaited there. Pins
   * the version (issue: "at start and daily") and authenticates once, so a slow or absent partner
   * no longer keeps the port closed (it did for 31 s) while webhooks arrive. A partner outage does
   * not stop anything: both log and the pin tries again on its schedule. The inbox's startup pass
   * runs beside them. GET /health/ready says `startup.state: starting` until all have finished once.
   */
  async warmUp(): Promise<void> {
    const started = Date.now();
    // What a crash left unprocessed is drained beside the partner calls (issue 9 defect 6: it
    // drains to the end now, and a large backlog must not keep the port closed either).
    const drained = this.guard(INBOX_REDELIVERY_JOB, () => this.redelivery.runOnce({ minAgeMs: 0 }));
    await this.guard(VERSION_PIN_JOB, () => this.versionPin.pin());
    await this.guard('first-authentication', () => this.tokens.getToken());
    this.logger.log(
      `start-up partner calls (version pin, authentication) finished in ${Date.now() - started} ms`,
    );
    await drained;
    this.startup.markFinished();
  }

  onApplicationShutdown(): void {
    this.stopSchedules();
  }

  /**
   * Stops the schedules and waits for the passes already running (the start-up drain, a cron
   * tick) for up to `boundMs`, so the database is not closed under a transaction still in flight:
   * the redelivery pass stops before its next batch (its abort), the batch in hand commits. A pass
   * that runs past the bound (a reconciliation pass has no abort) is left to fail as the database
   * closes; its work is repeated at the next start. ShutdownCoordinator calls it before closing.
   */
  async settle(boundMs = SETTLE_BOUND_MS): Promise<void> {
    this.stopSchedules();
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

  private stopSchedules(): void {
    for (const name of [
      RECONCILIATION_JOB,
      DEPOSIT_RECONCILIATION_JOB,
      INBOX_REDELIVERY_JOB,
      VERSION_PIN_JOB,
      INBOX_PRUNE_JOB,
    ]) {
      if (this.registry.doesExist('cron', name)) {
        void this.registry.getCronJob(name).stop();
        this.registry.deleteCronJob(name);
      }
    }
  }

  /**
   * `task` gets the tick it serves: the scheduled time the cron fired for (scheduledTick), however
   * late its timer fired, so every replica names the same tick and the job lock runs it once.
   */
  private add(name: string, cronTime: string, task: (tick: Date) => Promise<unknown>): void {
    const job: CronJob = CronJob.from({
      cronTime,
      name,
      waitForCompletion: true,
      start: false,
      onTick: () => this.guard(name, () => task(scheduledTick(job.cronTime))),
    });
    this.registry.addCronJob(name, job);
    job.start();
    this.logger.log(`job ${name} scheduled: ${cronTime}`);
  }

  /** Runs a pass, logs its failure, and keeps it in `running` until it ends (settle waits for it). */
  private guard(name: string, task: () => Promise<unknown>): Promise<void> {
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
}
