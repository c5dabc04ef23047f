import { Module, type DynamicModule } from '@nestjs/common';
import { ConfigModule } from '@nestjs/config';
import { APP_FILTER, APP_GUARD } from '@nestjs/core';
import { EventEmitterModule } from '@nestjs/event-emitter';
import { PartnerPaymentsModule } from '@partner-payments/nestjs';
import {
  PartnerPaymentsTypeOrmModule,
  PartnerTypeOrmInboxStore,
  PartnerUnitOfWork,
} from '@partner-payments/typeorm';
import { APP_ENTITIES } from './app-entities.constants';
import { AccessGuard } from './common/access.guard';
import { PartnerErrorFilter } from './common/partner-error.filter';
import { ConsoleModule } from './console/console.module';
import { AppConfigModule } from './config/app-config.module';
import { APP_CONFIG, loadAppConfig, type AppConfig } from './config/app.config';
import { DatabaseModule } from './database/database.module';
import { DemoModule } from './demo/demo.module';
import { HealthModule } from './health/health.module';
import { AppMetrics } from './observability/app-metrics.service';
import { ObservabilityModule } from './observability/observability.module';
import { OpenApiModule } from './openapi/openapi.module';
import { TracingLifecycle } from './observability/tracing.service';
import { PayoutsModule } from './payouts/payouts.module';
import { partnerRateLimitOptions } from './rate-budget/partner-rate-limit.options';
import { ReconciliationModule } from './reconciliation/reconciliation.module';
import { RfisModule } from './rfis/rfis.module';
import { PARTNER_CONNECTION, type PartnerConnection } from './sandbox/partner-connection.providers';
import { SandboxModule } from './sandbox/sandbox.module';
import { SchedulingModule } from './scheduling/scheduling.module';
import { ShutdownCoordinator } from './shutdown-coordinator.service';
import { appVersionPinOptions } from './versioning/version-pin.config';
import { VersioningModule } from './versioning/versioning.module';
import { appInboxOptions } from './webhooks/inbox-options.config';
import { WebhooksModule } from './webhooks/webhooks.module';

/**
 * PostgreSQL: a smaller backlog, so an entry does not wait behind a long queue (inbox lag p99 < 1 s
 * while ingesting at full rate; the store's batches are set in appInboxOptions).
 */
const POSTGRES_BATCHING = { maxBacklog: 256 };

export interface AppModuleOptions {
  /** Variables on top of process.env (tests); the result is validated like the real environment. */
  env?: Record<string, string | undefined>;
  /** Read .env / apps/reference-app/.env. Default true. */
  envFile?: boolean;
}

@Module({})
export class AppModule {
  /** Validates the configuration now: a bad variable fails here, before anything starts, naming it. */
  static async forRoot(options: AppModuleOptions = {}): Promise<DynamicModule> {
    // ConfigModule.forRoot loads the .env file into process.env and runs `validate` before its
    // first await; awaiting it turns a bad variable into this call's rejection.
    const configModule = await ConfigModule.forRoot({
      isGlobal: true,
      ignoreEnvFile: options.envFile === false,
      envFilePath: ['.env', 'apps/reference-app/.env'],
      validate: (raw) => {
        loadAppConfig({ ...(raw as Record<string, string | undefined>), ...options.env });
        return raw;
      },
    });
    const config: AppConfig = loadAppConfig({ ...process.env, ...options.env });
    return {
      module: AppModule,
      imports: [
        configModule,
        // Global: configuration, database (entities from the feature folders), partner connection, metrics.
        AppConfigModule.forRoot(config),
        DatabaseModule.forRoot({ entities: APP_ENTITIES }),
        // The durable inbox, the payout outbox, job locks and the version-pin job on the app's
        // DataSource (the default one: DatabaseModule provides it under @nestjs/typeorm's token), as
        // any app that imports the package; their options come from the environment (INBOX_*,
        // PAYOUT_REDRIVE_*, PARTNER_API_VERSION, VERSION_PIN_CRON).
        PartnerPaymentsTypeOrmModule.forRootAsync({
          inject: [APP_CONFIG, PARTNER_CONNECTION],
          useFactory: (cfg: AppConfig, conn: PartnerConnection) => ({
            inbox: appInboxOptions(cfg),
            payouts: { graceMs: cfg.redrive.graceMs, maxAgeMs: cfg.redrive.maxAgeMs },
            versionPin: appVersionPinOptions(cfg, conn),
          }),
        }),
        SandboxModule,
        ObservabilityModule,
        // Handlers must see errors (the inbox marks the entry failed): never swallow them.
        EventEmitterModule.forRoot({ ignoreErrors: false }),
        PartnerPaymentsModule.forRootAsync({
          isGlobal: true,
          inject: [APP_CONFIG, PARTNER_CONNECTION, PartnerTypeOrmInboxStore, PartnerUnitOfWork, AppMetrics],
          useFactory: (
            cfg: AppConfig,
            conn: PartnerConnection,
            inbox: PartnerTypeOrmInboxStore,
            uow: PartnerUnitOfWork,
            metrics: AppMetrics,
          ) => ({
            environment: conn.environment,
            baseUrl: conn.baseUrl,
            apiKey: conn.apiKey,
            clientId: conn.clientId,
            password: conn.password,
            clientUuid: conn.clientUuid ?? undefined,
            apiVersion: cfg.partner.apiVersion,
            timeoutMs: cfg.partner.timeoutMs,
            maxRetries: cfg.partner.maxRetries,
            sendVersionHeader: cfg.partner.sendVersionHeader,
            rateLimit: partnerRateLimitOptions(cfg, conn, uow),
            webhooks: {
              secrets: conn.webhookSecrets,
              ...(cfg.database.kind === 'postgres' ? { batching: POSTGRES_BATCHING } : {}),
            },
            inboxStore: inbox,
            // The library reports through hooks; the app turns them into Prometheus metrics.
            ...metrics.partnerHooks(),
          }),
        }),
        // The features: each owns its entities, providers and controllers.
        PayoutsModule,
        WebhooksModule,
        ReconciliationModule,
        RfisModule,
        ConsoleModule,
        VersioningModule,
        HealthModule,
        SchedulingModule,
        DemoModule,
        OpenApiModule,
      ],
      providers: [
        // Every route is operator-only unless marked (common/access.guard.ts): closed until decided.
        { provide: APP_GUARD, useClass: AccessGuard },
        // A partner error reaching Nest is answered by its cause, never a bare 500.
        { provide: APP_FILTER, useClass: PartnerErrorFilter },
        // Here, in the root module: Nest shuts deeper modules down first, and these two must stop
        // after the jobs (SchedulingModule) and together, as before: the in-flight webhooks drain,
        // the sandbox and the database close, and the trace exporter flushes.
        TracingLifecycle,
        ShutdownCoordinator,
      ],
    };
  }
}
