import { Inject, Injectable, type OnApplicationBootstrap } from '@nestjs/common';
import { INBOX_PRUNE_JOB, INBOX_REDELIVERY_JOB, PartnerInboxOperator } from '@partner-payments/typeorm';
import { APP_CONFIG, type AppConfig } from '../config/app.config';
import { ScheduledJobs } from '../scheduling/scheduled-jobs.service';

/**
 * The inbox's jobs, registered by this feature: redelivery (a drain of what is due) on
 * INBOX_REDELIVERY_CRON and once at start, and the retention prune on INBOX_PRUNE_CRON. The
 * partner never re-sends a delivery (spec 6.1.4): the drain is an entry's only second chance.
 * Exclusivity is the operator's: the prune runs under PartnerJobLockService.runExclusive (one
 * replica per tick), the drain under runShared (every replica, each batch claimed with SKIP LOCKED).
 */
@Injectable()
export class InboxJobs implements OnApplicationBootstrap {
  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly jobs: ScheduledJobs,
    private readonly inbox: PartnerInboxOperator,
  ) {}

  onApplicationBootstrap(): void {
    this.jobs.add(INBOX_REDELIVERY_JOB, this.config.inbox.redeliveryCron, () => this.inbox.drain());
    this.jobs.add(INBOX_PRUNE_JOB, this.config.inbox.pruneCron, (tick) => this.inbox.prune({ tick }));
    // What a crash left unprocessed: nothing of this process is in flight yet, so no minimum age.
    this.jobs.addStartPass(INBOX_REDELIVERY_JOB, () => this.inbox.drain({ minAgeMs: 0 }));
  }
}
