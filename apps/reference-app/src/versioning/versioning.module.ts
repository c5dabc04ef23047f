import { Module } from '@nestjs/common';
import { VersionPinService } from './version-pin.service';
import { VersioningController } from './versioning.controller';

/** API version pinning (api_version_pins): the pin job and GET/POST /versioning. */
@Module({
  controllers: [VersioningController],
  providers: [VersionPinService],
  exports: [VersionPinService],
})
export class VersioningModule {}
