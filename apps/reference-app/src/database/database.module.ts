import { Global, Module, type DynamicModule } from '@nestjs/common';
import { DataSource, type DataSourceOptions } from 'typeorm';
import { APP_CONFIG, type AppConfig } from '../config/app.config';
import { openDataSource } from './data-source.util';

export interface DatabaseModuleOptions {
  /** The entity classes, each from the feature folder owning its table (the app passes APP_ENTITIES). */
  entities: NonNullable<DataSourceOptions['entities']>;
}

/**
 * The database: the DataSource (connected, migrations run before anything else touches it).
 * Global, so every feature module and the module options' factory can inject it. A plain TypeORM
 * DataSource provider rather than @nestjs/typeorm's repositories: every access goes through
 * @partner-payments/typeorm's PartnerUnitOfWork (ambient transactions, SQLite serialization),
 * which repositories injected per class would bypass. It knows no feature: the entities are given to it.
 */
@Global()
@Module({})
export class DatabaseModule {
  static forRoot(options: DatabaseModuleOptions): DynamicModule {
    return {
      module: DatabaseModule,
      providers: [
        {
          provide: DataSource,
          inject: [APP_CONFIG],
          useFactory: (config: AppConfig) => openDataSource(config.database, { entities: options.entities }),
        },
      ],
      exports: [DataSource],
    };
  }
}
