import { Module } from '@nestjs/common';

/**
 * Empty: PartnerJobLockService comes from PartnerPaymentsTypeOrmModule, which is global. The
 * webhooks and versioning features still import this module; it goes when they stop.
 */
@Module({})
export class JobLockModule {}
