import type { Logger } from '@nestjs/common';
import { PartnerRateLimitError } from '@partner-payments/nestjs/errors';
import type { PartnerFailure } from './partner-failure.util';
import { PartnerPayoutFailedError } from './payout-outbox.errors';
import type { PartnerPayoutOutboxResolvedOptions } from './payout-outbox.options';
import type { PartnerPayoutHooks, PartnerPayoutRedriveSummary } from './payout-outbox.types';
import type { PartnerPayoutRequestEntity } from './payout-request.entity';
import type { PayoutRequestRows } from './payout-request-rows.store';
import { payoutRetryAt } from './payout-retry.policy';
import { mapWithLimit } from './map-with-limit.util';

/** Re-sends in flight at once: the partner allows 20 requests/s (spec 8), shared with the app's own calls. */
const CONCURRENCY = 4;
/** A 429's wait when it names none, and the longest one honoured (a re-drive held off longer nears maxAgeMs). */
const RATE_LIMIT_WAIT_MS = 60_000;
const MAX_RATE_LIMIT_WAIT_MS = 900_000;

type Outcome = 'created' | 'rejected' | 'retrying' | 'needs-review' | 'not-claimed';
type Send = (row: PartnerPayoutRequestEntity, hooks: PartnerPayoutHooks) => Promise<unknown>;

/**
 * PartnerPayoutOutbox.redrive. Each row is claimed by a conditional UPDATE (next_attempt_at moved
 * a grace ahead) before it is sent, so two passes on two replicas, or a replica that died
 * mid-send, never send one row twice within a grace. The contract does not say how long the
 * partner keeps a key, so a request older than the maximum age is never sent again: it is marked
 * needs_review and logged as an error for an operator.
 */
export class PayoutRedrivePass {
  /** Until when the partner asked this process to send nothing (a 429's Retry-After). */
  private quietUntil = 0;

  constructor(
    private readonly rows: PayoutRequestRows,
    private readonly options: PartnerPayoutOutboxResolvedOptions,
    private readonly logger: Logger,
    private readonly send: Send,
  ) {}

  async run(options: PartnerPayoutHooks & { signal?: AbortSignal }): Promise<PartnerPayoutRedriveSummary> {
    const summary: PartnerPayoutRedriveSummary = {
      resent: 0,
      created: 0,
      rejected: 0,
      retrying: 0,
      needsReview: 0,
    };
    for (;;) {
      options.signal?.throwIfAborted();
      if (Date.now() < this.quietUntil) break; // the rows left stay due for a later pass
      const now = new Date();
      const due = await this.rows.due(now, this.options.graceMs, this.options.batchSize);
      if (due.length === 0) break;
      const outcomes = await mapWithLimit(due, CONCURRENCY, (row) => this.one(row, now, options));
      for (const outcome of outcomes) {
        if (outcome === 'created' || outcome === 'rejected' || outcome === 'retrying') summary.resent += 1;
        if (outcome === 'created') summary.created += 1;
        if (outcome === 'rejected') summary.rejected += 1;
        if (outcome === 'retrying') summary.retrying += 1;
        if (outcome === 'needs-review') summary.needsReview += 1;
      }
      // Every row handled left the selection (claimed ahead, or no longer pending); a batch claimed
      // entirely by someone else means another pass is on it.
      if (outcomes.every((o) => o === 'not-claimed')) break;
    }
    if (summary.resent + summary.needsReview > 0)
      this.logger.log(
        `re-drive: re-sent ${summary.resent} (created ${summary.created}, rejected ${summary.rejected}, retrying ${summary.retrying}), needs review ${summary.needsReview}`,
      );
    return summary;
  }

  private async one(
    row: PartnerPayoutRequestEntity,
    now: Date,
    hooks: PartnerPayoutHooks & { signal?: AbortSignal },
  ): Promise<Outcome> {
    const key = row.idempotencyKey;
    if (now.getTime() - row.createdAt.getTime() > this.options.maxAgeMs) {
      const marked = await this.rows.settle(
        key,
        'needs_review',
        `pending past the maximum age after ${row.attempts} re-sends (last error: ${row.lastError ?? 'none'}); not re-sent: the partner may have forgotten the key`,
      );
      if (!marked) return 'not-claimed'; // another pass, or the caller's retry, settled it first
      this.logger.error(
        `payout request ${key} left pending since ${row.createdAt.toISOString()}: marked needs_review, not re-sent (the partner may have forgotten the key and would create a second payout); an operator must check the partner`,
      );
      return 'needs-review';
    }
    // Stopped (shutdown, the job lock lost) or rate-limited: a row not yet claimed stays due.
    if (hooks.signal?.aborted || Date.now() < this.quietUntil) return 'not-claimed';
    // The claim holds for a grace from now (not from the batch's start: a row may wait for a slot).
    if (!(await this.rows.claim(key, this.options.graceMs))) return 'not-claimed';
    try {
      await this.send(row, hooks);
      this.logger.log(`payout request ${key} re-sent: stored`);
      return 'created';
    } catch (error) {
      // Not the partner's (the database, the hook): the row stays pending and is tried again.
      const failure: PartnerFailure =
        error instanceof PartnerPayoutFailedError
          ? error.failure
          : {
              kind: 'unknown-outcome',
              status: null,
              message: `storing the answer failed: ${(error as Error).message}`,
            };
      if (failure.kind === 'refused') {
        await this.rows.settle(key, 'rejected', failure.message);
        this.logger.warn(`payout request ${key} re-sent: refused (${failure.status}): ${failure.message}`);
        return 'rejected';
      }
      let next = payoutRetryAt(row.attempts + 1, new Date());
      const cause = error instanceof Error ? error.cause : undefined;
      if (cause instanceof PartnerRateLimitError) {
        // The limit is per account (spec 8: 20 req/s), so a 429 holds back every send, not only this one.
        const wait = Math.min(cause.retryAfterMs ?? RATE_LIMIT_WAIT_MS, MAX_RATE_LIMIT_WAIT_MS);
        this.quietUntil = Math.max(this.quietUntil, Date.now() + wait);
        next = new Date(Math.max(next.getTime(), this.quietUntil));
      }
      await this.rows.backOff(key, next, failure.message);
      this.logger[failure.kind === 'our-configuration' ? 'error' : 'warn'](
        `payout request ${key} re-sent: ${failure.kind} (${failure.message}); next try at ${next.toISOString()}`,
      );
      return 'retrying';
    }
  }
}
