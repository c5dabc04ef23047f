import { Inject, Injectable, Logger } from '@nestjs/common';
import {
  decidePayoutStatusChange,
  PartnerPayoutsService,
  PartnerWebhookDispatcher,
  type PartnerPayout,
} from '@partner-payments/nestjs';
import { Brackets } from 'typeorm';
import { APP_CONFIG, type AppConfig } from '../config/app.config';
import { PayoutEntity } from '../database/entities';
import { UnitOfWork } from '../database/unit-of-work.service';
import { AppMetrics } from '../observability/app.metrics';
import { withLogFields } from '../observability/log.context';
import { JobLockService } from '../scheduling/job-lock.service';
import { mapWithConcurrency } from './concurrency.util';
import { reconcileRetryAt } from './reconcile-backoff.policy';

export const RECONCILIATION_JOB = 'payout-reconciliation';

export interface ReconciliationSummary {
  /** false when another replica held the lock: this pass did nothing. */
  ran: boolean;
  checked: number;
  changed: number;
  failed: number;
  batches: number;
}

/**
 * Reads the partner's payout resource for every payout we do not consider settled and applies
 * what it says (spec 3.4 and 6.4.8: the outcome of a hold may never arrive as an event). Changes
 * go out as the same unified payout-status event the webhook path emits (source
 * 'reconciliation'), so the projection and any other handler see one stream.
 */
@Injectable()
export class ReconciliationService {
  private readonly logger = new Logger('Reconciliation');

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly uow: UnitOfWork,
    private readonly locks: JobLockService,
    private readonly partnerPayouts: PartnerPayoutsService,
    private readonly dispatcher: PartnerWebhookDispatcher,
    private readonly metrics: AppMetrics,
  ) {}

  /** `tick`: the cron tick this run serves (see RunExclusiveOptions); none when asked by hand. */
  async runOnce(options: { tick?: Date } = {}): Promise<ReconciliationSummary> {
    const run = await this.locks.runExclusive(RECONCILIATION_JOB, () => this.pass(), options);
    if (run.ran) this.metrics.reconciliationPass('payouts', run.result, ['checked', 'changed', 'failed']);
    return run.ran ? run.result : { ran: false, checked: 0, changed: 0, failed: 0, batches: 0 };
  }

  private async pass(): Promise<ReconciliationSummary> {
    const passStart = new Date();
    const summary: ReconciliationSummary = { ran: true, checked: 0, changed: 0, failed: 0, batches: 0 };
    // Each payout at most once per pass: only rows not checked since the pass began qualify,
    // and a checked (or failed) row gets last_checked_at = now.
    for (;;) {
      const batch = await this.nextBatch(passStart);
      if (batch.length === 0) break;
      summary.batches += 1;
      // One log scope per payout (issue 13: payout_id on its lines), reads running side by side.
      const outcomes = await mapWithConcurrency(batch, this.config.reconcile.concurrency, (row) =>
        withLogFields({ payout_id: row.payoutId }, () => this.checkOne(row)),
      );
      for (const outcome of outcomes) {
        summary.checked += 1;
        if (outcome === 'changed') summary.changed += 1;
        if (outcome === 'failed') summary.failed += 1;
      }
    }
    if (summary.checked > 0)
      this.logger.log(
        `pass: checked ${summary.checked}, changed ${summary.changed}, failed ${summary.failed}`,
      );
    return summary;
  }

  /** Unsettled payouts, oldest-checked first (never-checked first of all), due after any backoff. */
  private async nextBatch(passStart: Date): Promise<PayoutEntity[]> {
    const completedSince = new Date(
      passStart.getTime() - this.config.reconcile.completedWindowHours * 3_600_000,
    );
    return this.uow.run((m) =>
      m
        .createQueryBuilder(PayoutEntity, 'p')
        .where(
          new Brackets((w) => {
            w.where('p.status NOT IN (:...settled)', { settled: ['COMPLETED', 'FAILED', 'CANCELLED'] });
            // COMPLETED is not strictly final: a bank return can still fail it (provider-facts).
            w.orWhere('(p.status = :completed AND p.updated_at >= :completedSince)', {
              completed: 'COMPLETED',
              completedSince,
            });
            // A failure learnt from an event lacks its error_code (spec 6.4.4: only on the resource): read it once.
            w.orWhere('(p.status = :failed AND p.error_code IS NULL AND p.last_checked_at IS NULL)', {
              failed: 'FAILED',
            });
          }),
        )
        .andWhere('(p.last_checked_at IS NULL OR p.last_checked_at < :passStart)', { passStart })
        .andWhere('(p.next_check_at IS NULL OR p.next_check_at <= :passStart)')
        .orderBy('CASE WHEN p.last_checked_at IS NULL THEN 0 ELSE 1 END', 'ASC')
        .addOrderBy('p.last_checked_at', 'ASC')
        .addOrderBy('p.payout_id', 'ASC')
        .limit(this.config.reconcile.batchSize)
        .getMany(),
    );
  }

  /**
   * One payout. A failure (the read, or applying what it said: a handler that throws, a database
   * error) is counted and backed off, never thrown: it must not stall the batch, nor, since the
   * row would stay first in line, every later pass.
   */
  private async checkOne(row: PayoutEntity): Promise<'changed' | 'unchanged' | 'failed'> {
    let resource: PartnerPayout;
    try {
      resource = await this.partnerPayouts.get(row.payoutId);
    } catch (error) {
      return this.failed(row, 'read', error);
    }
    const decision = decidePayoutStatusChange(row.status, resource.status);
    const newDetails =
      (resource.referenceNumber !== null && resource.referenceNumber !== row.referenceNumber) ||
      (resource.errorCode !== null && resource.errorCode !== row.errorCode);
    if (decision.apply || newDetails) {
      try {
        // The projection handler writes inside this transaction; the event and the row agree.
        await this.uow.transaction(() =>
          this.dispatcher.publishPayoutStatus({
            payoutId: row.payoutId,
            status: resource.status,
            previousStatus: row.status,
            rawStatus: resource.rawStatus,
            source: 'reconciliation',
            eventName: null,
            eventId: null,
            occurredAt: new Date().toISOString(),
            referenceNumber: resource.referenceNumber,
            errorCode: resource.errorCode,
          }),
        );
      } catch (error) {
        return this.failed(row, 'apply', error);
      }
      if (decision.apply)
        this.logger.log(`payout ${row.payoutId}: ${row.status} -> ${decision.next} (from the resource)`);
    }
    await this.bookkeep(row.payoutId, { lastCheckedAt: new Date(), checkFailures: 0, nextCheckAt: null });
    return decision.apply ? 'changed' : 'unchanged';
  }

  private async failed(row: PayoutEntity, stage: 'read' | 'apply', error: unknown): Promise<'failed'> {
    const failures = row.checkFailures + 1;
    const now = new Date();
    await this.bookkeep(row.payoutId, {
      lastCheckedAt: now,
      checkFailures: failures,
      nextCheckAt: reconcileRetryAt(failures, now),
    });
    const message = error instanceof Error ? error.message : String(error);
    this.logger.warn(`payout ${row.payoutId}: ${stage} failed (${failures} in a row): ${message}`);
    return 'failed';
  }

  /** Scheduling columns only: no version bump, so it never conflicts with a status write. */
  private async bookkeep(
    payoutId: string,
    fields: Pick<PayoutEntity, 'lastCheckedAt' | 'checkFailures' | 'nextCheckAt'>,
  ): Promise<void> {
    await this.uow.run((m) => m.update(PayoutEntity, { payoutId }, fields));
  }
}
