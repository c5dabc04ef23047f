import { Controller, Get, HttpCode, Post } from '@nestjs/common';
import { Access } from '../common/access.guard';
import { InboxAtRestService, type PruneSummary } from './inbox-at-rest.service';
import { InboxRedeliveryService, type RedeliverySummary } from './inbox-redelivery.service';
import { TypeOrmInboxStore } from './typeorm-inbox.store';

@Access('operator')
@Controller('inbox')
export class InboxController {
  constructor(
    private readonly redelivery: InboxRedeliveryService,
    private readonly inbox: TypeOrmInboxStore,
    private readonly atRest: InboxAtRestService,
  ) {}

  /** Runs the inbox-prune job now: deletes processed entries older than INBOX_RETENTION_DAYS. */
  @Post('prune')
  @HttpCode(200)
  prune(): Promise<PruneSummary> {
    return this.atRest.prune();
  }

  /** Runs the failed-inbox redelivery job now. Entries younger than 10 s that never ran are left to their delivery. */
  @Post('redeliver')
  @HttpCode(200)
  redeliver(): Promise<RedeliverySummary> {
    return this.redelivery.runOnce();
  }

  /** Entries per state (pending, processed, failed, dead). */
  @Get()
  summary(): Promise<Record<string, number>> {
    return this.inbox.countByState();
  }
}
