import { Logger, type BeforeApplicationShutdown } from '@nestjs/common';
import type { PartnerWebhookProcessingService } from '@partner-payments/nestjs/webhooks';
import type { PartnerJobLockService } from '../job-locks/job-lock.service';
import type { PartnerTypeOrmInboxStore } from './typeorm-inbox.store';

export const INBOX_REDELIVERY_JOB = 'inbox-redelivery';

export interface RedeliverySummary {
  ran: boolean;
  processed: number;
  failed: number;
  /** Entries this process was handling at that moment (left to it), or found processed meanwhile. */
  skipped: number;
  /** Batches read (`inbox.redeliveryBatchSize` entries each at most). */
  batches: number;
  /** Entries past the attempt limit, left visible for an operator. */
  dead: number;
}

/**
 * Re-runs the handlers of inbox entries that failed (after their backoff) or were never processed
 * (the process died between storing the event and processing it). The partner never redelivers
 * on 2026-04-14 (spec 6.1.4): this is the only second chance.
 *
 * Each run drains, so a crash's backlog is not left at one batch a tick: batch after batch of
 * `inbox.redeliveryBatchSize` until nothing due is left, `inbox.redeliveryConcurrency` batches at
 * once, each entry tried at most once per run (a failure keeps its backoff).
 */
export class InboxRedeliveryService implements BeforeApplicationShutdown {
  private readonly logger = new Logger('InboxRedelivery');
  private readonly stopping = new AbortController();

  constructor(
    private readonly inbox: PartnerTypeOrmInboxStore,
    /** The module's processing service, found when a run starts (PartnerPaymentsModule boots after this package). */
    private readonly webhooks: () => PartnerWebhookProcessingService,
    private readonly locks: PartnerJobLockService,
    private readonly runs: { batchSize: number; concurrency: number },
  ) {}

  /**
   * minAgeMs: a never-processed entry younger than this is probably being processed right now by
   * the delivery that stored it; the scheduled run leaves it alone. At start, nothing of this
   * process is in flight, so the startup pass uses 0; an entry another replica is processing at
   * that moment is not applied twice (the store holds each entry it processes, and re-reads it).
   *
   * Every replica runs it: each batch is claimed in its own transaction with FOR UPDATE
   * SKIP LOCKED, so replicas draining at once share the backlog and never take the same entry
   * (no tick bookkeeping either: a replica that finds nothing due ends at its first claim).
   */
  async runOnce(options: { minAgeMs?: number; limit?: number } = {}): Promise<RedeliverySummary> {
    const run = await this.locks.runShared(INBOX_REDELIVERY_JOB, () =>
      this.webhooks().processPending({
        limit: options.limit ?? this.runs.batchSize,
        minAgeMs: options.minAgeMs ?? 10_000,
        concurrency: this.runs.concurrency,
        untilEmpty: true,
        signal: this.stopping.signal,
      }),
    );
    // The dead count alone: its partial index holds only dead entries (processed ones are most rows).
    const dead = (await this.inbox.countByState(['dead'])).dead ?? 0;
    if (!run.ran) return { ran: false, processed: 0, failed: 0, skipped: 0, batches: 0, dead };
    const { processed, failed } = run.result;
    if (processed + failed > 0) {
      this.logger.log(
        `redelivered ${processed + failed} in ${run.result.batches} batches: ${processed} processed, ${failed} failed; ${dead} dead`,
      );
    }
    return { ran: true, ...run.result, dead };
  }

  /** A run in progress stops before its next batch: the rest is due at the next start or tick. */
  beforeApplicationShutdown(): void {
    this.stopping.abort();
  }
}
