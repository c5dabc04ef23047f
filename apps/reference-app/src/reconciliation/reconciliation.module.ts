import { Module } from '@nestjs/common';
import { PayoutsModule } from '../payouts/payouts.module';
import { ProjectionsModule } from '../webhooks/projections/projections.module';
import { DepositReconciliationService } from './deposits/deposit-reconciliation.service';
import {
  DepositReconciliationController,
  VirtualAccountsController,
} from './deposits/virtual-accounts.controller';
import { ReconciliationController } from './reconciliation.controller';
import { ReconciliationJobs } from './reconciliation-jobs.service';
import { ReconciliationService } from './reconciliation.service';

/**
 * Reconciliation against the partner's resources (spec 6.4.8: a hold's outcome may never arrive
 * as an event): payouts (shared passes over the payout list) and deposits, with their endpoints,
 * their scheduled jobs (ReconciliationJobs), and the virtual-account balance read-through.
 */
@Module({
  imports: [PayoutsModule, ProjectionsModule],
  controllers: [ReconciliationController, DepositReconciliationController, VirtualAccountsController],
  providers: [ReconciliationService, DepositReconciliationService, ReconciliationJobs],
  exports: [ReconciliationService, DepositReconciliationService],
})
export class ReconciliationModule {}
