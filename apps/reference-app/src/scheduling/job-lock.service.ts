/**
 * The job lock is @partner-payments/typeorm's PartnerJobLockService (PartnerPaymentsTypeOrmModule,
 * global). The webhooks and versioning features still name it JobLockService; they import the
 * package directly once the inbox moves there, and this file goes.
 */
export { PartnerJobLockService as JobLockService } from '@partner-payments/typeorm';
