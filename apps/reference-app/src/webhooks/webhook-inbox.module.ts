import { Module } from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '../config/app.config';
import { PartnerUnitOfWork } from '@partner-payments/typeorm';
import { InboxDeadLetters } from './inbox-dead-letters.store';
import { InboxKeyRing } from './inbox-key-ring.util';
import { resolveInboxKeyRing } from './inbox-key.providers';
import { InboxMaintenanceStore } from './inbox-maintenance.store';
import { TypeOrmInboxStore } from './typeorm-inbox.store';
import { InboxWriteHealth } from './inbox-write-health.service';

/**
 * The webhook inbox's storage: the sealing keys and the TypeORM stores. Apart from WebhooksModule
 * because PartnerPaymentsModule.forRootAsync imports it for its `inboxStore`, before the library's
 * own services (which WebhooksModule's jobs use) exist.
 */
@Module({
  providers: [
    {
      provide: InboxKeyRing,
      inject: [APP_CONFIG],
      useFactory: (config: AppConfig) => resolveInboxKeyRing(config),
    },
    {
      provide: InboxMaintenanceStore,
      inject: [PartnerUnitOfWork, InboxKeyRing],
      useFactory: (uow: PartnerUnitOfWork, keys: InboxKeyRing) => new InboxMaintenanceStore(uow, keys),
    },
    {
      provide: InboxDeadLetters,
      inject: [PartnerUnitOfWork],
      useFactory: (uow: PartnerUnitOfWork) => new InboxDeadLetters(uow),
    },
    {
      provide: InboxWriteHealth,
      inject: [PartnerUnitOfWork, InboxKeyRing],
      useFactory: (uow: PartnerUnitOfWork, keys: InboxKeyRing) => new InboxWriteHealth(uow, keys.currentId),
    },
    {
      provide: TypeOrmInboxStore,
      inject: [PartnerUnitOfWork, InboxKeyRing, APP_CONFIG, InboxWriteHealth],
      useFactory: (uow: PartnerUnitOfWork, keys: InboxKeyRing, config: AppConfig, writes: InboxWriteHealth) =>
        new TypeOrmInboxStore(uow, keys, {
          retry: { maxAttempts: config.inbox.maxAttempts },
          recordTimeoutMs: config.inbox.recordTimeoutMs,
          processingDurability: config.inbox.processingDurability,
          writes,
        }),
    },
  ],
  exports: [InboxKeyRing, InboxMaintenanceStore, InboxDeadLetters, TypeOrmInboxStore, InboxWriteHealth],
})
export class WebhookInboxModule {}
