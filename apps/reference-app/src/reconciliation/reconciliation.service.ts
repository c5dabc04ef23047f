import { Inject, Injectable, Logger } from '@nestjs/common';
import { PartnerPayoutsService } from '@partner-payments/nestjs';
import { APP_CONFIG, type AppConfig } from '../config/app.config';
import { PartnerUnitOfWork } from '@partner-payments/typeorm';
import { AppMetrics } from '../observability/app-metrics.service';
import { withLogFields } from '../observability/log-context.util';
import { PayoutProjection } from '../payouts/payout-projection.service';
import { chooseListWindow } from './list-window.policy';
import { PayoutClaims } from './payout-claims.store';
import { PayoutListPhase } from './payout-list-phase.service';
import { claimStamp, readPayouts } from './payout-reads.util';
import { PayoutSettler, type Sighting } from './payout-settler.service';
import { countOutcomes, emptySummary, type ReconciliationSummary } from './reconciliation.types';
import { ReconciliationPassStore, type ListState, type Pass } from './reconciliation-pass.store';

export const RECONCILIATION_JOB = 'payout-reconciliation';
export type { ReconciliationSummary };

/**
 * Settles every payout we do not consider settled from what the partner says (spec 3.4 and 6.4.8:
 * the outcome of a hold may never arrive as an event), within the partner's rate limit (evidence
 * §1: 20 requests/s per account) and across replicas:
 *
 * 1. A pass is shared: the first replica opens it, the others join it (reconciliation_passes).
 * 2. The partner's payout list (GET /v1/payouts?from_date&page&limit=100, evidence §6) from a window
 *    chosen by chooseListWindow, in runs of LIST_PAGES_PER_TAKE pages, each run by one replica: the
 *    payouts of a run still to check are claimed in one statement and settled from their list
 *    rows, a few read by GET for what only the resource has (list-row.policy).
 * 3. Then the candidates no page showed (older than the window, or missed) are claimed in batches
 *    (FOR UPDATE SKIP LOCKED on PostgreSQL) and read one by one.
 *
 * Each payout is checked at most once per pass in total, whatever the number of replicas. With
 * RECONCILE_USE_LIST=false every payout is read by GET (step 3 only).
 */
@Injectable()
export class ReconciliationService {
  private readonly logger = new Logger('Reconciliation');
  private readonly passes: ReconciliationPassStore;
  private readonly claims: PayoutClaims;
  private readonly settler: PayoutSettler;
  private readonly list: PayoutListPhase;
  /** One worker per process: a run while another is in progress here returns at once. */
  private running = false;

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    uow: PartnerUnitOfWork,
    projection: PayoutProjection,
    private readonly partnerPayouts: PartnerPayoutsService,
    private readonly metrics: AppMetrics,
  ) {
    this.passes = new ReconciliationPassStore(uow, RECONCILIATION_JOB);
    this.claims = new PayoutClaims(
      uow,
      config.reconcile.completedWindowHours,
      config.reconcile.returnHorizonDays,
    );
    this.settler = new PayoutSettler(uow, projection, this.claims, this.logger);
    this.list = new PayoutListPhase(
      this.passes,
      this.claims,
      this.settler,
      partnerPayouts,
      config.reconcile.concurrency,
      this.logger,
    );
  }

  /**
   * `tick`: the cron tick this run serves; none when asked by hand. What this replica did in the
   * pass goes to the metrics (checked / changed / failed; changed is drift).
   */
  async runOnce(options: { tick?: Date } = {}): Promise<ReconciliationSummary> {
    const summary = await this.takePart(options);
    this.metrics.reconciliationPass('payouts', summary, ['checked', 'changed', 'failed']);
    return summary;
  }

  private async takePart(options: { tick?: Date }): Promise<ReconciliationSummary> {
    if (this.running) return emptySummary();
    this.running = true;
    try {
      const now = new Date();
      // The window is priced (a query over the payouts) only by the replica that opens the pass.
      const window = async () =>
        this.config.reconcile.useList ? chooseListWindow(await this.claims.days(now)) : { fromDate: null };
      const participation = await this.passes.joinOrOpen(now, options.tick ?? null, window);
      if (!participation) return emptySummary();
      const { pass } = participation;
      const summary: ReconciliationSummary = {
        ...emptySummary(),
        ran: true,
        passId: pass.passId,
        opened: pass.opened,
      };
      try {
        let listState: ListState = 'done';
        if (pass.fromDate) {
          await this.list.run(pass, summary);
          listState = await this.list.settled(pass);
        }
        await this.readPhase(pass, summary, listState === 'failed' ? pass.readBefore : null);
        await this.passes.finish(pass, new Date());
      } finally {
        await participation.leave();
      }
      if (summary.checked > 0)
        this.logger.log(
          `pass ${pass.passId.slice(0, 8)}: checked ${summary.checked} (${summary.pages} list pages, ${summary.reads} single reads), changed ${summary.changed}, failed ${summary.failed}`,
        );
      return summary;
    } finally {
      this.running = false;
    }
  }

  /** Claims what is left in batches and reads each payout by GET (the per-payout path). */
  private async readPhase(
    pass: Pass,
    summary: ReconciliationSummary,
    createdBefore: Date | null,
  ): Promise<void> {
    for (;;) {
      // Replaced (its participants were taken for dead): the new pass re-checks what this one has not.
      if (!(await this.passes.isCurrent(pass))) return;
      const rows = await this.claims.claimNext(
        pass,
        this.config.reconcile.batchSize,
        claimStamp(pass),
        createdBefore,
      );
      if (rows.length === 0) return;
      summary.batches += 1;
      await this.passes.heartbeat(pass, new Date());
      const resources = await readPayouts(
        rows,
        this.partnerPayouts,
        this.config.reconcile.concurrency,
        summary,
      );
      const now = new Date();
      const sightings: Sighting[] = [];
      for (const row of rows) {
        const resource = resources.get(row.payoutId)!;
        if (resource instanceof Error) {
          await this.claims.backOff(row, now);
          withLogFields({ payout_id: row.payoutId }, () =>
            this.logger.warn(
              `payout ${row.payoutId}: read failed (${row.checkFailures + 1} in a row): ${resource.message}`,
            ),
          );
          summary.checked += 1;
          summary.failed += 1;
        } else sightings.push({ row, seen: resource, byGet: true });
      }
      countOutcomes(summary, await this.settler.settle(sightings, now));
    }
  }
}
