import type { Provider } from '@nestjs/common';
import { ModuleRef } from '@nestjs/core';
import { PartnerWebhookProcessingService } from '@partner-payments/nestjs/webhooks';
import { PartnerUnitOfWork } from '../database/unit-of-work.service';
import { PartnerJobLockService } from '../job-locks/job-lock.service';
import { PARTNER_TYPEORM_RESOLVED_OPTIONS } from '../partner-payments-typeorm.constants';
import { PartnerTypeOrmConfigurationError } from '../partner-payments-typeorm.errors';
import type { PartnerTypeOrmResolvedOptions } from '../partner-payments-typeorm.options';
import { InboxAtRestService } from './at-rest/inbox-at-rest.service';
import { InboxMaintenanceStore } from './at-rest/inbox-maintenance.store';
import { InboxDeadLetters } from './inbox-dead-letters.store';
import { PartnerInboxOperator } from './inbox-operator.service';
import { InboxRedeliveryService } from './inbox-redelivery.service';
import { InboxWriteHealth } from './inbox-write-health.service';
import { PartnerTypeOrmInboxStore } from './typeorm-inbox.store';

/** Names Nest reads on every provider instance: an unconfigured store must not answer them. */
const INSPECTED = new Set([
  'then',
  'constructor',
  'onModuleInit',
  'onApplicationBootstrap',
  'onModuleDestroy',
  'beforeApplicationShutdown',
  'onApplicationShutdown',
]);

/**
 * The store when `inbox` was not given: every method refuses, naming the option. Handed to
 * PartnerPaymentsModule as `inboxStore`, its boot check reads a method and fails the start there.
 */
function unconfiguredStore(): PartnerTypeOrmInboxStore {
  return new Proxy(Object.create(null) as PartnerTypeOrmInboxStore, {
    get(target, property) {
      if (typeof property === 'symbol' || INSPECTED.has(property)) return undefined;
      throw new PartnerTypeOrmConfigurationError(
        'inbox',
        `is not configured: give PartnerPaymentsTypeOrmModule.forRoot the inbox option ({ sealingKeys }) to use PartnerTypeOrmInboxStore (read: ${property})`,
      );
    },
  });
}

/** The inbox's providers, on the module's PartnerUnitOfWork (its DataSource). */
export function inboxProviders(): Provider[] {
  return [
    {
      provide: InboxWriteHealth,
      inject: [PartnerUnitOfWork, PARTNER_TYPEORM_RESOLVED_OPTIONS],
      useFactory: (uow: PartnerUnitOfWork, options: PartnerTypeOrmResolvedOptions) =>
        options.inbox ? new InboxWriteHealth(uow, options.inbox.keys.currentId) : null,
    },
    {
      provide: PartnerTypeOrmInboxStore,
      inject: [PartnerUnitOfWork, PARTNER_TYPEORM_RESOLVED_OPTIONS, InboxWriteHealth],
      useFactory: (
        uow: PartnerUnitOfWork,
        options: PartnerTypeOrmResolvedOptions,
        writes: InboxWriteHealth | null,
      ) =>
        options.inbox && writes
          ? new PartnerTypeOrmInboxStore(uow, options.inbox.keys, {
              retry: { maxAttempts: options.inbox.maxAttempts },
              recordTimeoutMs: options.inbox.recordTimeoutMs,
              processingDurability: options.inbox.processingDurability,
              batching: options.inbox.batching,
              writes,
            })
          : unconfiguredStore(),
    },
    {
      provide: PartnerInboxOperator,
      inject: [
        PartnerUnitOfWork,
        PARTNER_TYPEORM_RESOLVED_OPTIONS,
        PartnerTypeOrmInboxStore,
        InboxWriteHealth,
        PartnerJobLockService,
        ModuleRef,
      ],
      useFactory: (
        uow: PartnerUnitOfWork,
        options: PartnerTypeOrmResolvedOptions,
        store: PartnerTypeOrmInboxStore,
        writes: InboxWriteHealth | null,
        locks: PartnerJobLockService,
        modules: ModuleRef,
      ) => {
        const inbox = options.inbox;
        if (!inbox || !writes) return new PartnerInboxOperator(null);
        // Found when a drain starts: PartnerPaymentsModule, which provides it, is built with this
        // package's store, so it cannot be injected here.
        const processing = () => modules.get(PartnerWebhookProcessingService, { strict: false });
        return new PartnerInboxOperator({
          uow,
          store,
          writes,
          deadLetters: new InboxDeadLetters(uow),
          redelivery: new InboxRedeliveryService(store, processing, locks, {
            batchSize: inbox.redeliveryBatchSize,
            concurrency: inbox.redeliveryConcurrency,
          }),
          atRest: new InboxAtRestService(
            new InboxMaintenanceStore(uow, inbox.keys),
            locks,
            inbox.retentionDays,
          ),
        });
      },
    },
  ];
}
