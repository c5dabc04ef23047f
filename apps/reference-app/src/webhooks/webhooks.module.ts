import { Module } from '@nestjs/common';
import { PartnerUnitOfWork } from '@partner-payments/typeorm';
import { PayoutsModule } from '../payouts/payouts.module';
import { JobScheduleModule } from '../scheduling/job-schedule.module';
import { InboxJobs } from './inbox-jobs.service';
import { InboxController } from './inbox.controller';
import { ProjectionHandlers } from './projections/projection-handlers.service';
import { ResourceProjections } from './projections/resource-projections.service';

/**
 * Webhooks after the library's guard and @partner-payments/typeorm's inbox: the projections of
 * events (payouts, users, virtual accounts, deposits), the inbox's jobs, and GET/POST /inbox
 * (PartnerInboxOperator behind the app's operator access). POST /webhooks/partner itself is the
 * library's (PartnerPaymentsModule).
 */
@Module({
  imports: [PayoutsModule, JobScheduleModule],
  controllers: [InboxController],
  providers: [
    {
      provide: ResourceProjections,
      inject: [PartnerUnitOfWork],
      useFactory: (uow: PartnerUnitOfWork) => new ResourceProjections(uow),
    },
    ProjectionHandlers,
    InboxJobs,
  ],
})
export class WebhooksModule {}
