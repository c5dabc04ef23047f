import { Module, type DynamicModule } from '@nestjs/common';
import { ConfigModule } from '@nestjs/config';
import { APP_FILTER, APP_GUARD } from '@nestjs/core';
import { EventEmitterModule } from '@nestjs/event-emitter';
import { ScheduleModule } from '@nestjs/schedule';
import { TerminusModule } from '@nestjs/terminus';
import { PartnerPaymentsModule } from '@partner-payments/nestjs';
import { APP_CONFIG, loadAppConfig, type AppConfig } from './config/app.config';
import { AccessGuard } from './common/access.guard';
import { PartnerErrorFilter } from './common/partner-error.filter';
import { CoreModule } from './core.module';
import { DemoRunner } from './demo/demo.runner';
import { HealthController } from './health/health.controller';
import { ReadinessIndicators } from './health/readiness.indicators';
import { AppMetrics } from './observability/app.metrics';
import { MetricsController } from './observability/metrics.controller';
import { TracingLifecycle } from './observability/tracing.setup';
import { StartupState } from './health/startup.state';
import { PayoutRedriveController } from './payouts/payout-redrive.controller';
import { PayoutRedriveService } from './payouts/payout-redrive.service';
import { PayoutsController } from './payouts/payouts.controller';
import { PayoutsService } from './payouts/payouts.service';
import { ReconciliationController } from './reconciliation/reconciliation.controller';
import { ReconciliationService } from './reconciliation/reconciliation.service';
import { DepositReconciliationService } from './deposits/deposit-reconciliation.service';
import {
  DepositReconciliationController,
  VirtualAccountsController,
} from './deposits/virtual-accounts.controller';
import { UnitOfWork } from './database/unit-of-work.service';
import { partnerRateLimitOptions } from './rate-budget/partner-rate-limit.options';
import { PARTNER_CONNECTION, type PartnerConnection } from './sandbox/partner-connection.provider';
import { CronJobsService } from './scheduling/cron-jobs.service';
import { ShutdownCoordinator } from './shutdown.coordinator';
import { VersionPinService } from './versioning/version-pin.service';
import { VersioningController } from './versioning/versioning.controller';
import { InboxAtRestService } from './webhooks/inbox-at-rest.service';
import { InboxRedeliveryService } from './webhooks/inbox-redelivery.service';
import { InboxController } from './webhooks/inbox.controller';
import { ProjectionHandlers } from './webhooks/projection.handlers';
import { TypeOrmInboxStore } from './webhooks/typeorm-inbox.store';

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
        CoreModule.forRoot(config),
        // Handlers must see errors (the inbox marks the entry failed): never swallow them.
        EventEmitterModule.forRoot({ ignoreErrors: false }),
        ScheduleModule.forRoot(),
        // Issue 13: GET /health/live and /health/ready; a failed check is logged as one JSON line.
        TerminusModule.forRoot({ errorLogStyle: 'json' }),
        PartnerPaymentsModule.forRootAsync({
          isGlobal: true,
          inject: [APP_CONFIG, PARTNER_CONNECTION, TypeOrmInboxStore, UnitOfWork, AppMetrics],
          useFactory: (
            cfg: AppConfig,
            conn: PartnerConnection,
            inbox: TypeOrmInboxStore,
            uow: UnitOfWork,
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
              // Issue 14: on PostgreSQL each statement is a round trip, so several processing
              // transactions at once (the store holds entries with SKIP LOCKED); SQLite has one writer.
              batching: { processConcurrency: cfg.database.kind === 'postgres' ? 4 : 1 },
            },
            inboxStore: inbox,
            // Issue 13: the library reports through hooks; the app turns them into Prometheus metrics.
            ...metrics.partnerHooks(),
          }),
        }),
      ],
      controllers: [
        // Before PayoutsController: GET /payouts/redrive must not match GET /payouts/:payoutId.
        PayoutRedriveController,
        PayoutsController,
        ReconciliationController,
        DepositReconciliationController,
        VirtualAccountsController,
        VersioningController,
        InboxController,
        HealthController,
        MetricsController,
      ],
      providers: [
        // Issue 9 defect 8: every route is operator-only unless marked (common/access.guard.ts).
        { provide: APP_GUARD, useClass: AccessGuard },
        // Issue 9 defect 2: a partner error reaching Nest is answered by its cause, never a bare 500.
        { provide: APP_FILTER, useClass: PartnerErrorFilter },
        PayoutsService,
        PayoutRedriveService,
        ReconciliationService,
        DepositReconciliationService,
        VersionPinService,
        InboxRedeliveryService,
        InboxAtRestService,
        ProjectionHandlers,
        CronJobsService,
        StartupState,
        ReadinessIndicators,
        TracingLifecycle,
        DemoRunner,
        ShutdownCoordinator,
      ],
    };
  }
}
