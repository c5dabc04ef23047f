import { Module } from '@nestjs/common';
import { HealthModule } from '../health/health.module';
import { ReconciliationModule } from '../reconciliation/reconciliation.module';
import { CronJobsService } from './cron-jobs.service';
import { JobScheduleModule } from './job-schedule.module';

/**
 * The reconciliation jobs and the start-up warm-up (its version pin is PartnerVersionPin's); the registry
 * every feature registers its jobs with is JobScheduleModule's. The locks the jobs take are
 * PartnerJobLockService's (@partner-payments/typeorm).
 */
@Module({
  imports: [JobScheduleModule, HealthModule, ReconciliationModule],
  providers: [CronJobsService],
  exports: [CronJobsService],
})
export class SchedulingModule {}
