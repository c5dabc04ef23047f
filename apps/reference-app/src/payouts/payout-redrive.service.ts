import { Inject, Injectable, Logger } from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '../config/app.config';
import { PayoutRequestEntity } from './payout-request.entity';
import { PartnerJobLockService, PartnerUnitOfWork } from '@partner-payments/typeorm';
import { mapWithConcurrency } from '../reconciliation/concurrency.util';
import { reconcileRetryAt } from '../reconciliation/reconcile-backoff.policy';
import { AppMetrics } from '../observability/app-metrics.service';
import { withLogFields } from '../observability/log-context.util';
import { classifyPartnerFailure } from './partner-failure.util';
import { PayoutsService, storedPayoutBody } from './payouts.service';

export const PAYOUT_REDRIVE_JOB = 'payout-redrive';

/** Requests read per batch, and re-sends in flight at once (the partner allows 20 requests/s). */
const BATCH_SIZE = 50;
const CONCURRENCY = 4;
/** Re-drive backoff after a failed re-send: 1 min doubling, capped at 1 h. */
const RETRY_BASE_MS = 60_000;
const RETRY_CAP_MS = 3_600_000;

export interface RedriveSummary {
  /** false when another replica held the job's lock: this pass did nothing. */
  ran: boolean;
  /** Requests re-sent to the partner in this pass. */
  resent: number;
  /** Re-sent and stored: the partner's answer (its replay of the key) is now a payout here. */
  created: number;
  /** Refused by the partner (4xx other than 401/403/409/429) or by local validation. */
  rejected: number;
  /** 409, 429, 5xx, timeout, reset, or our credentials refused: tried again after a backoff. */
  retrying: number;
  /** Pending past PAYOUT_REDRIVE_MAX_AGE_HOURS: not sent, left to an operator. */
  needsReview: number;
}

type Outcome = 'created' | 'rejected' | 'retrying' | 'needs-review' | 'not-claimed';

/**
 * Issue 9 defect 1, the outbox re-drive of POST /payouts. A request row is committed `pending`
 * before the partner is called; if the app dies after the partner created the payout and before
 * the answer was stored, and the `payout.created` webhook is lost too (spec 6.1.4: never
 * re-sent), nothing else would ever learn of that payout. This job re-sends every request left
 * pending past the grace period with its stored key and body: the partner replays the original
 * answer for a used key (provider-facts "Replaying an Idempotency-Key returns the original result";
 * evidence [T3r DRIFT-34]) or, if the first send never reached it, creates the payout now. The answer
 * is stored by PayoutsService.submit, the code POST /payouts runs.
 *
 * Safe on several replicas: the pass runs under the job lock, and each row is claimed by a
 * conditional UPDATE (next_attempt_at moved a grace period ahead) before it is sent, so two
 * passes, or a replica that died mid-send, never send one row twice within a grace period.
 * The partner does not document how long it keeps a key, so a request older than
 * PAYOUT_REDRIVE_MAX_AGE_HOURS is never re-sent (a forgotten key would create a second payout):
 * it is marked `needs_review` and logged as an error for an operator.
 */
@Injectable()
export class PayoutRedriveService {
  private readonly logger = new Logger('PayoutRedrive');

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly uow: PartnerUnitOfWork,
    private readonly locks: PartnerJobLockService,
    private readonly payouts: PayoutsService,
    private readonly metrics: AppMetrics,
  ) {}

  /** `tick`: the cron tick this run serves (see PartnerRunExclusiveOptions); none when asked by hand. */
  async runOnce(options: { tick?: Date } = {}): Promise<RedriveSummary> {
    const run = await this.locks.runExclusive(PAYOUT_REDRIVE_JOB, (signal) => this.pass(signal), options);
    if (run.ran) this.metrics.redrivePass(run.result);
    if (run.ran) return run.result;
    return { ran: false, resent: 0, created: 0, rejected: 0, retrying: 0, needsReview: 0 };
  }

  /** Requests per state, and those left for an operator (newest first, at most 100). */
  async report(): Promise<{ states: Record<string, number>; needsReview: PayoutRequestEntity[] }> {
    return this.uow.run(async (m) => {
      const counts: Array<{ state: string; n: string | number }> = await m
        .createQueryBuilder(PayoutRequestEntity, 'r')
        .select('r.state', 'state')
        .addSelect('COUNT(*)', 'n')
        .groupBy('r.state')
        .getRawMany();
      const needsReview = await m.find(PayoutRequestEntity, {
        where: { state: 'needs_review' },
        order: { createdAt: 'DESC' },
        take: 100,
      });
      return { states: Object.fromEntries(counts.map((c) => [c.state, Number(c.n)])), needsReview };
    });
  }

  private async pass(signal?: AbortSignal): Promise<RedriveSummary> {
    const summary: RedriveSummary = {
      ran: true,
      resent: 0,
      created: 0,
      rejected: 0,
      retrying: 0,
      needsReview: 0,
    };
    for (;;) {
      signal?.throwIfAborted(); // the job lock was lost: another replica may be on it
      const now = new Date();
      const due = await this.dueBatch(now);
      if (due.length === 0) break;
      // One log scope per request: its lines carry the payout_id once the partner's answer is stored.
      const outcomes = await mapWithConcurrency(due, CONCURRENCY, (row) =>
        withLogFields({}, () => this.redriveOne(row, now)),
      );
      for (const outcome of outcomes) {
        if (outcome === 'created' || outcome === 'rejected' || outcome === 'retrying') summary.resent += 1;
        if (outcome === 'created') summary.created += 1;
        if (outcome === 'rejected') summary.rejected += 1;
        if (outcome === 'retrying') summary.retrying += 1;
        if (outcome === 'needs-review') summary.needsReview += 1;
      }
      // Every row handled moved out of the selection (claimed ahead, or no longer pending); a batch
      // claimed entirely by someone else means they are on it.
      if (outcomes.every((o) => o === 'not-claimed')) break;
    }
    if (summary.resent + summary.needsReview > 0) {
      this.logger.log(
        `pass: re-sent ${summary.resent} (created ${summary.created}, rejected ${summary.rejected}, retrying ${summary.retrying}), needs review ${summary.needsReview}`,
      );
    }
    return summary;
  }

  /** Pending past the grace period and due (never tried, or its backoff or claim expired), oldest first. */
  private dueBatch(now: Date): Promise<PayoutRequestEntity[]> {
    const graceCutoff = new Date(now.getTime() - this.config.redrive.graceMs);
    return this.uow.run((m) =>
      m
        .createQueryBuilder(PayoutRequestEntity, 'r')
        .where('r.state = :pending', { pending: 'pending' })
        .andWhere('r.created_at <= :graceCutoff', { graceCutoff })
        .andWhere('(r.next_attempt_at IS NULL OR r.next_attempt_at <= :now)', { now })
        .orderBy('r.created_at', 'ASC')
        .addOrderBy('r.idempotency_key', 'ASC')
        .limit(BATCH_SIZE)
        .getMany(),
    );
  }

  private async redriveOne(row: PayoutRequestEntity, now: Date): Promise<Outcome> {
    const key = row.idempotencyKey;
    if (now.getTime() - row.createdAt.getTime() > this.config.redrive.maxAgeMs) {
      const marked = await this.payouts.markNeedsReview(
        key,
        `pending past PAYOUT_REDRIVE_MAX_AGE_HOURS after ${row.attempts} re-sends (last error: ${row.lastError ?? 'none'}); not re-sent: the partner may have forgotten the key`,
      );
      if (!marked) return 'not-claimed'; // another pass, or the caller's retry, settled it first
      this.logger.error(
        `payout request ${key} left pending since ${row.createdAt.toISOString()}: marked needs_review, not re-sent (the partner may have forgotten the key and would create a second payout); an operator must check the partner`,
      );
      return 'needs-review';
    }
    if (!(await this.claim(row))) return 'not-claimed';
    try {
      const payout = await this.payouts.submit(key, storedPayoutBody(row));
      this.logger.log(`payout request ${key} re-sent: payout ${payout.payoutId} stored (${payout.status})`);
      return 'created';
    } catch (error) {
      const failure = classifyPartnerFailure(error);
      if (failure.kind === 'refused') {
        await this.payouts.markRejected(key, failure.message);
        this.logger.warn(`payout request ${key} re-sent: refused (${failure.status}): ${failure.message}`);
        return 'rejected';
      }
      const next = reconcileRetryAt(row.attempts + 1, new Date(), RETRY_BASE_MS, RETRY_CAP_MS);
      await this.uow.run((m) =>
        m.update(
          PayoutRequestEntity,
          { idempotencyKey: key, state: 'pending' },
          { nextAttemptAt: next, lastError: failure.message.slice(0, 2000), updatedAt: new Date() },
        ),
      );
      const log = failure.kind === 'our-configuration' ? 'error' : 'warn';
      this.logger[log](
        `payout request ${key} re-sent: ${failure.kind} (${failure.message}); next try at ${next.toISOString()}`,
      );
      return 'retrying';
    }
  }

  /**
   * Takes the row for one re-send: a conditional UPDATE that only one replica's pass can win
   * (PostgreSQL re-checks the condition on the row it waited for; SQLite has one writer). The claim
   * holds for a grace period from now (not from the batch's start: a row waits for a free slot
   * among CONCURRENCY): if this process dies mid-send, the row is due again after it.
   */
  private async claim(row: PayoutRequestEntity): Promise<boolean> {
    const now = new Date();
    const result = await this.uow.run((m) =>
      m
        .createQueryBuilder()
        .update(PayoutRequestEntity)
        .set({
          attempts: () => 'attempts + 1',
          nextAttemptAt: new Date(now.getTime() + this.config.redrive.graceMs),
          updatedAt: now,
        })
        .where('idempotency_key = :key AND state = :pending', { key: row.idempotencyKey, pending: 'pending' })
        .andWhere('(next_attempt_at IS NULL OR next_attempt_at <= :now)', { now })
        .execute(),
    );
    return result.affected === 1;
  }
}
