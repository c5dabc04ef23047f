import { Module } from '@nestjs/common';
import { PartnerUnitOfWork } from '@partner-payments/typeorm';
import { PayoutProjection } from './payout-projection.service';
import { PayoutRedriveController } from './payout-redrive.controller';
import { PayoutRedriveService } from './payout-redrive.service';
import { PayoutsController } from './payouts.controller';
import { PayoutsService } from './payouts.service';

/** Payouts: POST/GET /payouts, the outbox re-drive, and the payout projection every writer goes through. */
@Module({
  controllers: [
    // Before PayoutsController: GET /payouts/redrive must not match GET /payouts/:payoutId.
    PayoutRedriveController,
    PayoutsController,
  ],
  providers: [
    {
      provide: PayoutProjection,
      inject: [PartnerUnitOfWork],
      useFactory: (uow: PartnerUnitOfWork) => new PayoutProjection(uow),
    },
    PayoutsService,
    PayoutRedriveService,
  ],
  exports: [PayoutProjection, PayoutRedriveService],
})
export class PayoutsModule {}
