import { Global, Module } from '@nestjs/common';
import { ScheduleModule } from '@nestjs/schedule';
import { ScheduledJobs } from './scheduled-jobs.service';

/**
 * The job registry (ScheduledJobs) every feature registers its own jobs with. Global and
 * importing no feature, so a feature module needs no import of it and no cycle can form.
 */
@Global()
@Module({
  imports: [ScheduleModule.forRoot()],
  providers: [ScheduledJobs],
  exports: [ScheduledJobs],
})
export class JobScheduleModule {}
