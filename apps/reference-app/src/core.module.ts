import { Global, Module, type DynamicModule } from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from './config/app.config';
import { databaseProviders } from './database/database.providers';
import { partnerConnectionProvider, PARTNER_CONNECTION } from './sandbox/partner-connection.providers';
import { DataSource } from 'typeorm';
import { UnitOfWork } from './database/unit-of-work.service';
import { InboxKeyRing } from './webhooks/inbox-key-ring.util';
import { InboxMaintenanceStore } from './webhooks/inbox-maintenance.store';
import { TypeOrmInboxStore } from './webhooks/typeorm-inbox.store';
import { PayoutProjection } from './payouts/payout-projection.service';
import { ResourceProjections } from './webhooks/projections/resource-projections.service';
import { JobLockService } from './scheduling/job-lock.service';
import { AppMetrics } from './observability/app-metrics.service';
import { readInboxStats } from './observability/inbox-stats.util';

/** Configuration, database, partner connection and metrics: global, so the async module options can inject them. */
@Global()
@Module({})
export class CoreModule {
  static forRoot(config: AppConfig): DynamicModule {
    const exported = [
      APP_CONFIG,
      PARTNER_CONNECTION,
      DataSource,
      UnitOfWork,
      TypeOrmInboxStore,
      InboxKeyRing,
      InboxMaintenanceStore,
      PayoutProjection,
      ResourceProjections,
      JobLockService,
      AppMetrics,
    ];
    return {
      module: CoreModule,
      providers: [
        { provide: APP_CONFIG, useValue: config },
        partnerConnectionProvider,
        ...databaseProviders,
        {
          // Here, not in AppModule: the module options' factory injects it to wire the library's hooks.
          provide: AppMetrics,
          inject: [UnitOfWork],
          useFactory: (uow: UnitOfWork) => {
            const metrics = new AppMetrics();
            metrics.useInboxStats(() => readInboxStats(uow));
            return metrics;
          },
        },
      ],
      exports: exported,
    };
  }
}
