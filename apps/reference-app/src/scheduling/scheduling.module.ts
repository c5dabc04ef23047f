import { Module } from '@nestjs/common';
import { HealthModule } from '../health/health.module';
import { CronJobsService } from './cron-jobs.service';
import { JobScheduleModule } from './job-schedule.module';

/**
 * The start-up warm-up (its version pin is PartnerVersionPin's); the registry every feature
 * registers its own jobs with is JobScheduleModule's. The locks the jobs take are
 * PartnerJobLockService's (@partner-payments/typeorm).
 */
@Module({
  imports: [JobScheduleModule, HealthModule],
  providers: [CronJobsService],
  exports: [CronJobsService],
})
export class SchedulingModule {}
