/**
 * @partner-payments/typeorm: the durable parts of @partner-payments/nestjs on your own TypeORM
 * DataSource (PostgreSQL or better-sqlite3): the crash-safe webhook inbox and its operator
 * service, the payout request outbox (a crash-safe payout call), job locks for your scheduled
 * jobs, the opt-in version-pin job, and the entities and migrations they need.
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
export { partnerScheduledTick } from './job-locks/scheduled-tick.util';
export { partnerMinimumRedriveGraceMs } from './payouts/redrive-grace.policy';
export {
  PartnerUnitOfWork,
  type CommitDurability,
  type TransactionOptions,
} from './database/unit-of-work.service';
export { fromStoredText, inboxEventKey, toStorableMessage, toStoredText } from './database/inbox-text.util';
export { PartnerJobLockEntity } from './job-locks/job-lock.entity';
export { PartnerJobLocks1765100000000 } from './migrations/1765100000000-partner-job-locks.migration';
export { PartnerWebhookInbox1765200000000 } from './migrations/1765200000000-partner-webhook-inbox.migration';
export { PartnerWebhookInboxEntity } from './inbox/webhook-inbox.entity';
export { PartnerWebhookInboxTombstoneEntity } from './inbox/webhook-inbox-tombstone.entity';
export { PartnerTypeOrmInboxStore, type PartnerTypeOrmInboxStoreOptions } from './inbox/typeorm-inbox.store';
export { PartnerInboxOperator } from './inbox/inbox-operator.service';
export { type PartnerInboxBacklog } from './inbox/inbox-backlog.util';
export {
  DEFAULT_INBOX_RECORD_TIMEOUT_MS,
  type PartnerTypeOrmInboxBatching,
  type PartnerTypeOrmInboxOptions,
  type PartnerTypeOrmInboxResolvedOptions,
} from './inbox/inbox.options';
export {
  INBOX_REDELIVERY_JOB,
  type RedeliverySummary as PartnerInboxDrainSummary,
} from './inbox/inbox-redelivery.service';
export {
  INBOX_PRUNE_JOB,
  INBOX_RESEAL_JOB,
  type PruneSummary as PartnerInboxPruneSummary,
} from './inbox/at-rest/inbox-at-rest.service';
export { type DeadInboxEntry as PartnerInboxDeadEntry } from './inbox/inbox-dead-letters.store';
export { type InboxWriteState as PartnerInboxWriteState } from './inbox/inbox-write-health.service';
export {
  PartnerInboxKeyRing,
  PartnerInboxKeyUnavailableError,
  generateInboxKeyEntry,
  parseInboxKeys,
  type InboxKey as PartnerInboxKey,
} from './inbox/at-rest/inbox-key-ring.util';
export { readOrCreateInboxKeyFile, type PartnerInboxKeyFile } from './inbox/at-rest/inbox-key-file.util';
export {
  HOLDER_KEEPALIVE_SQL,
  LOCK_HEARTBEAT_MS,
  keepConnectionBusy,
  partnerJobLockKey,
} from './job-locks/advisory-lock.util';
export { PartnerPayoutOutbox } from './payouts/payout-outbox.service';
export {
  partnerPayoutFingerprint,
  type PartnerOutboxPayoutBody,
  type PartnerOutboxPayoutRequest,
} from './payouts/payout-body.util';
export {
  classifyPartnerFailure,
  type PartnerFailure,
  type PartnerFailureKind,
} from './payouts/partner-failure.util';
export {
  PartnerPayoutFailedError,
  PartnerPayoutKeyReusedError,
  PartnerPayoutNeedsReviewError,
  PartnerPayoutStateError,
} from './payouts/payout-outbox.errors';
export {
  DEFAULT_PAYOUT_BATCH_SIZE,
  DEFAULT_PAYOUT_GRACE_MS,
  DEFAULT_PAYOUT_MAX_AGE_MS,
  type PartnerPayoutOutboxOptions,
  type PartnerPayoutOutboxResolvedOptions,
} from './payouts/payout-outbox.options';
export type {
  PartnerOutboxPayoutContext,
  PartnerPayoutCreatedHook,
  PartnerPayoutHooks,
  PartnerPayoutRedriveSummary,
  PartnerPayoutResolution,
  PartnerPayoutSubmission,
} from './payouts/payout-outbox.types';
export { PartnerPayoutRequestEntity, type PartnerPayoutRequestState } from './payouts/payout-request.entity';
export { PartnerPayoutRequests1765210000000 } from './migrations/1765210000000-partner-payout-requests.migration';
export {
  PARTNER_VERSION_PIN_JOB,
  PartnerVersionPin,
  type PartnerVersionPinState,
} from './version-pin/version-pin.service';
export {
  DEFAULT_VERSION_PIN_CRON,
  type PartnerVersionPinOptions,
  type PartnerVersionPinResolvedOptions,
} from './version-pin/version-pin.options';
export { PartnerVersionPinEntity, type PartnerVersionPinOutcome } from './version-pin/version-pin.entity';
export { partnerVersionPinKey } from './version-pin/version-pin-key.util';
export { PartnerVersionPins1765220000000 } from './migrations/1765220000000-partner-version-pins.migration';
