import { Global, Module, type DynamicModule } from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from './config/app.config';
import { databaseProviders } from './database/database.providers';
import { partnerConnectionProvider, PARTNER_CONNECTION } from './sandbox/partner-connection.provider';
import { DataSource } from 'typeorm';
import { UnitOfWork } from './database/unit-of-work.service';
import { InboxKeyRing } from './webhooks/inbox-key.ring';
import { InboxMaintenanceStore } from './webhooks/inbox-maintenance.store';
import { TypeOrmInboxStore } from './webhooks/typeorm-inbox.store';
import { PayoutProjection } from './payouts/payout.projection';
import { ResourceProjections } from './projections/resource.projections';
import { JobLockService } from './scheduling/job-lock.service';

/** Configuration, database and partner connection: global, so the async module options can inject them. */
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
    ];
    return {
      module: CoreModule,
      providers: [{ provide: APP_CONFIG, useValue: config }, partnerConnectionProvider, ...databaseProviders],
      exports: exported,
    };
  }
}
