import { Module } from '@nestjs/common';
import { UnitOfWork } from '../database/unit-of-work.service';
import { JobLockService } from './job-lock.service';

/** Job locks (job_locks): one replica runs a job's pass. Imported by every feature that has a job. */
@Module({
  providers: [
    {
      provide: JobLockService,
      inject: [UnitOfWork],
      useFactory: (uow: UnitOfWork) => new JobLockService(uow),
    },
  ],
  exports: [JobLockService],
})
export class JobLockModule {}
