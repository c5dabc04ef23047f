import { Module } from '@nestjs/common';
import { JobLockModule } from '../scheduling/job-lock.module';
import { VersionPinService } from './version-pin.service';
import { VersioningController } from './versioning.controller';

/** API version pinning (api_version_pins): the pin job and GET/POST /versioning. */
@Module({
  imports: [JobLockModule],
  controllers: [VersioningController],
  providers: [VersionPinService],
  exports: [VersionPinService],
})
export class VersioningModule {}
