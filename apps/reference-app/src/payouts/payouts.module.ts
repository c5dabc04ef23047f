import { Module } from '@nestjs/common';
import { PartnerUnitOfWork } from '@partner-payments/typeorm';
import { PayoutProjection } from './payout-projection.service';
import { PayoutRedriveController } from './payout-redrive.controller';
import { PayoutRedriveJob } from './payout-redrive-job.service';
import { PayoutRedriveService } from './payout-redrive.service';
import { PayoutsController } from './payouts.controller';
import { PayoutsService } from './payouts.service';

/**
 * Payouts: POST/GET /payouts through @partner-payments/typeorm's PartnerPayoutOutbox, its re-drive
 * (a route and the feature's own scheduled job), and the payout projection every writer goes through.
 */
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
    // The feature's own scheduled job (PAYOUT_REDRIVE_CRON), under PartnerJobLockService.
    PayoutRedriveJob,
  ],
  exports: [PayoutProjection, PayoutRedriveService],
})
export class PayoutsModule {}
