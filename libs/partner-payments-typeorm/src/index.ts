/**
 * @partner-payments/typeorm: the durable parts of @partner-payments/nestjs on your own TypeORM
 * DataSource (PostgreSQL or better-sqlite3). This release: job locks for your scheduled jobs, and
 * the entities and migrations they need.
 */
export {
  PartnerPaymentsTypeOrmModule,
  type PartnerPaymentsTypeOrmAsyncOptions,
  type PartnerPaymentsTypeOrmForRootOptions,
  type PartnerTypeOrmOptionsFactory,
} from './partner-payments-typeorm.module';
export {
  DEFAULT_SQLITE_LEASE_MS,
  PartnerTypeOrmConfigurationError,
  resolvePartnerTypeOrmOptions,
  type PartnerPaymentsTypeOrmExtras,
  type PartnerPaymentsTypeOrmOptions,
  type PartnerTypeOrmResolvedOptions,
} from './partner-payments-typeorm.options';
export {
  PARTNER_TYPEORM_OPTIONS,
  PARTNER_TYPEORM_RESOLVED_OPTIONS,
  partnerTypeOrmEntities,
  partnerTypeOrmMigrations,
} from './partner-payments-typeorm.constants';
export {
  PartnerJobLockService,
  TICK_SKEW_MS,
  type PartnerJobRun,
  type PartnerRunExclusiveOptions,
} from './job-locks/job-lock.service';
export {
  PartnerUnitOfWork,
  type CommitDurability,
  type TransactionOptions,
} from './database/unit-of-work.service';
export { fromStoredText, inboxEventKey, toStorableMessage, toStoredText } from './database/inbox-text.util';
export { PartnerJobLockEntity } from './job-locks/job-lock.entity';
export { PartnerJobLocks1765100000000 } from './migrations/1765100000000-partner-job-locks.migration';
export {
  HOLDER_KEEPALIVE_SQL,
  LOCK_HEARTBEAT_MS,
  keepConnectionBusy,
  partnerJobLockKey,
} from './job-locks/advisory-lock.util';
