import { Module } from '@nestjs/common';
import { HealthModule } from '../health/health.module';
import { VersioningModule } from '../versioning/versioning.module';
import { CronJobsService } from './cron-jobs.service';
import { JobScheduleModule } from './job-schedule.module';

/**
 * The version-pin job and the start-up warm-up; the registry every feature registers its own
 * jobs with is JobScheduleModule's. The locks the jobs take are PartnerJobLockService's
 * (@partner-payments/typeorm).
 */
@Module({
  imports: [JobScheduleModule, HealthModule, VersioningModule],
  providers: [CronJobsService],
  exports: [CronJobsService],
})
export class SchedulingModule {}
