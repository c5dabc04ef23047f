import { Injectable, Logger } from '@nestjs/common';
import { PartnerWebhookService } from '@partner-payments/nestjs';
import { JobLockService } from '../scheduling/job-lock.service';
import { TypeOrmInboxStore } from './typeorm-inbox.store';

export const INBOX_REDELIVERY_JOB = 'inbox-redelivery';

export interface RedeliverySummary {
  ran: boolean;
  processed: number;
  failed: number;
  /** Entries past the attempt limit, left visible for an operator. */
  dead: number;
}

/**
 * Re-runs the handlers of inbox entries that failed (after their backoff) or were never processed
 * (the process died between storing the event and processing it). The partner never redelivers
 * on 2026-04-14 (spec 6.1.4): this is the only second chance.
 */
@Injectable()
export class InboxRedeliveryService {
  private readonly logger = new Logger('InboxRedelivery');

  constructor(
    private readonly inbox: TypeOrmInboxStore,
    private readonly webhooks: PartnerWebhookService,
    private readonly locks: JobLockService,
  ) {}

  /**
   * minAgeMs: a never-processed entry younger than this is probably being processed right now by
   * the delivery that stored it; the scheduled run leaves it alone. At start, nothing of this
   * process is in flight, so the startup pass uses 0; an entry another replica is processing at
   * that moment is not applied twice (TypeOrmInboxStore.runProcessing re-reads it under its lock).
   */
  async runOnce(
    options: { minAgeMs?: number; limit?: number; tick?: Date } = {},
  ): Promise<RedeliverySummary> {
    // The library skips entries this process is handling right now; the lock keeps replicas apart.
    const run = await this.locks.runExclusive(
      INBOX_REDELIVERY_JOB,
      () =>
        this.webhooks.processPending({ limit: options.limit ?? 100, minAgeMs: options.minAgeMs ?? 10_000 }),
      { tick: options.tick },
    );
    const dead = (await this.inbox.countByState()).dead ?? 0;
    if (!run.ran) return { ran: false, processed: 0, failed: 0, dead };
    if (run.result.processed + run.result.failed > 0) {
      this.logger.log(
        `redelivered ${run.result.processed + run.result.failed}: ${run.result.processed} processed, ${run.result.failed} failed; ${dead} dead`,
      );
    }
    return { ran: true, ...run.result, dead };
  }
}
