import { Module } from '@nestjs/common';
import { PartnerUnitOfWork } from '@partner-payments/typeorm';
import { PayoutsModule } from '../payouts/payouts.module';
import { InboxAtRestService } from './inbox-at-rest.service';
import { InboxRedeliveryService } from './inbox-redelivery.service';
import { InboxController } from './inbox.controller';
import { ProjectionHandlers } from './projections/projection-handlers.service';
import { ResourceProjections } from './projections/resource-projections.service';
import { WebhookInboxModule } from './webhook-inbox.module';

/**
 * Webhooks after the library's guard and inbox: the projections of events (payouts, users,
 * virtual accounts, deposits), inbox redelivery, sealing at rest, pruning, and GET/POST /inbox.
 * POST /webhooks/partner itself is the library's (PartnerPaymentsModule).
 */
@Module({
  imports: [WebhookInboxModule, PayoutsModule],
  controllers: [InboxController],
  providers: [
    {
      provide: ResourceProjections,
      inject: [PartnerUnitOfWork],
      useFactory: (uow: PartnerUnitOfWork) => new ResourceProjections(uow),
    },
    ProjectionHandlers,
    InboxRedeliveryService,
    InboxAtRestService,
  ],
  exports: [InboxRedeliveryService, InboxAtRestService],
})
export class WebhooksModule {}
