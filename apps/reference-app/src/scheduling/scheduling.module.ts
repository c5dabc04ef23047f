import { Module } from '@nestjs/common';
import { ScheduleModule } from '@nestjs/schedule';
import { HealthModule } from '../health/health.module';
import { ReconciliationModule } from '../reconciliation/reconciliation.module';
import { VersioningModule } from '../versioning/versioning.module';
import { WebhooksModule } from '../webhooks/webhooks.module';
import { CronJobsService } from './cron-jobs.service';

/**
 * The cron jobs (@nestjs/schedule), registered under their names from the configuration; each
 * runs a feature's pass. The locks they take are PartnerJobLockService's (@partner-payments/typeorm).
 */
@Module({
  imports: [ScheduleModule.forRoot(), HealthModule, ReconciliationModule, VersioningModule, WebhooksModule],
  providers: [CronJobsService],
  exports: [CronJobsService],
})
export class SchedulingModule {}
