import { Module } from '@nestjs/common';
import { PartnerUnitOfWork } from '@partner-payments/typeorm';
import { ResourceProjections } from './resource-projections.service';

/**
 * The users, virtual accounts and deposits projections, for the features that write them besides
 * the webhook handlers (deposit reconciliation). Stateless apart from table metadata, so a second
 * instance next to the webhooks module's writes the same rows by the same rules.
 */
@Module({
  providers: [
    {
      provide: ResourceProjections,
      inject: [PartnerUnitOfWork],
      useFactory: (uow: PartnerUnitOfWork) => new ResourceProjections(uow),
    },
  ],
  exports: [ResourceProjections],
})
export class ProjectionsModule {}
