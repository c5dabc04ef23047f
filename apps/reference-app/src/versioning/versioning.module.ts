import { Module } from '@nestjs/common';
import { VersioningController } from './versioning.controller';

/**
 * API version pinning: GET/POST /versioning on @partner-payments/typeorm's PartnerVersionPin,
 * which keeps the pin in api_version_pins, restores it at start and pins on its schedule once
 * across replicas (its options: version-pin.config.ts, given in app.module.ts).
 */
@Module({
  controllers: [VersioningController],
})
export class VersioningModule {}
