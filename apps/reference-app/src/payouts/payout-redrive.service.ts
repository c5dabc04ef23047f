import { Injectable } from '@nestjs/common';
import {
  PartnerJobLockService,
  PartnerPayoutOutbox,
  type PartnerPayoutRedriveSummary,
  type PartnerPayoutRequestEntity,
} from '@partner-payments/typeorm';
import { AppMetrics } from '../observability/app-metrics.service';
import { withLogFields } from '../observability/log-context.util';
import { PayoutsService } from './payouts.service';

export const PAYOUT_REDRIVE_JOB = 'payout-redrive';

export interface RedriveSummary extends PartnerPayoutRedriveSummary {
  /** false when another replica held the job's lock: this pass did nothing. */
  ran: boolean;
}

/**
 * The outbox re-drive of POST /payouts (PartnerPayoutOutbox.redrive), under the job lock so one
 * replica runs a pass at a time (the outbox's row claims keep two passes from sending one row
 * anyway). Without it, a payout the partner created while the app died before storing the answer,
 * its payout.created webhook lost too (spec 6.1.4: never re-sent), would stay unknown here.
 */
@Injectable()
export class PayoutRedriveService {
  constructor(
    private readonly locks: PartnerJobLockService,
    private readonly outbox: PartnerPayoutOutbox,
    private readonly payouts: PayoutsService,
    private readonly metrics: AppMetrics,
  ) {}

  /** `tick`: the cron tick this run serves (see PartnerRunExclusiveOptions); none when asked by hand. */
  async runOnce(options: { tick?: Date; signal?: AbortSignal } = {}): Promise<RedriveSummary> {
    const run = await this.locks.runExclusive(
      PAYOUT_REDRIVE_JOB,
      (lost) =>
        this.outbox.redrive({
          // One log scope per request: its lines carry the payout_id once the answer is stored.
          onCreated: (payout, _m, request) =>
            withLogFields({}, () => this.payouts.project(payout, request)).then(() => undefined),
          signal: options.signal ? AbortSignal.any([lost, options.signal]) : lost,
        }),
      { tick: options.tick },
    );
    if (!run.ran) return { ran: false, resent: 0, created: 0, rejected: 0, retrying: 0, needsReview: 0 };
    const summary = { ran: true, ...run.result };
    this.metrics.redrivePass(summary);
    return summary;
  }

  /** Requests per state, and those left for an operator (newest first, at most 100). */
  async report(): Promise<{ states: Record<string, number>; needsReview: PartnerPayoutRequestEntity[] }> {
    const [states, needsReview] = await Promise.all([
      this.outbox.countByState(),
      this.outbox.needsReview(100),
    ]);
    return { states: states as Record<string, number>, needsReview };
  }
}
