import type { Provider } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { APP_CONFIG, type AppConfig } from '../config/app.config';
import { PayoutProjection } from '../payouts/payout-projection.service';
import { ResourceProjections } from '../webhooks/projections/resource-projections.service';
import { JobLockService } from '../scheduling/job-lock.service';
import { InboxKeyRing } from '../webhooks/inbox-key-ring.util';
import { resolveInboxKeyRing } from '../webhooks/inbox-key.providers';
import { InboxMaintenanceStore } from '../webhooks/inbox-maintenance.store';
import { TypeOrmInboxStore } from '../webhooks/typeorm-inbox.store';
import { openDataSource } from './data-source.util';
import { UnitOfWork } from './unit-of-work.service';

/**
 * The database and everything built directly on it. A plain TypeORM DataSource provider rather
 * than @nestjs/typeorm's repositories: every access goes through the UnitOfWork (ambient
 * transactions, SQLite serialization), which repositories injected per class would bypass.
 * Migrations run in openDataSource, before anything else touches the database.
 */
export const databaseProviders: Provider[] = [
  {
    provide: DataSource,
    inject: [APP_CONFIG],
    useFactory: (config: AppConfig) => openDataSource(config.database),
  },
  { provide: UnitOfWork, inject: [DataSource], useFactory: (ds: DataSource) => new UnitOfWork(ds) },
  {
    provide: InboxKeyRing,
    inject: [APP_CONFIG],
    useFactory: (config: AppConfig) => resolveInboxKeyRing(config),
  },
  {
    provide: InboxMaintenanceStore,
    inject: [UnitOfWork, InboxKeyRing],
    useFactory: (uow: UnitOfWork, keys: InboxKeyRing) => new InboxMaintenanceStore(uow, keys),
  },
  {
    provide: TypeOrmInboxStore,
    inject: [UnitOfWork, InboxKeyRing, APP_CONFIG],
    useFactory: (uow: UnitOfWork, keys: InboxKeyRing, config: AppConfig) =>
      new TypeOrmInboxStore(uow, keys, { retry: { maxAttempts: config.inbox.maxAttempts } }),
  },
  {
    provide: PayoutProjection,
    inject: [UnitOfWork],
    useFactory: (uow: UnitOfWork) => new PayoutProjection(uow),
  },
  {
    provide: ResourceProjections,
    inject: [UnitOfWork],
    useFactory: (uow: UnitOfWork) => new ResourceProjections(uow),
  },
  { provide: JobLockService, inject: [UnitOfWork], useFactory: (uow: UnitOfWork) => new JobLockService(uow) },
];
