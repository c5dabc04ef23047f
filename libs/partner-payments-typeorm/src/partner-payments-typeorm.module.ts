import { ConfigurableModuleBuilder, Module, type DynamicModule, type Provider } from '@nestjs/common';
import { ModuleRef } from '@nestjs/core';
import { getDataSourceToken } from '@nestjs/typeorm';
import {
  PARTNER_PAYMENTS_OPTIONS,
  PartnerPaymentsClient,
  PartnerPayoutsService,
  type PartnerPaymentsModuleOptions,
  PartnerVersioningService,
} from '@partner-payments/nestjs';
import type { DataSource } from 'typeorm';
import { databaseKindOf } from './database/sql-dialect.util';
import { PartnerUnitOfWork } from './database/unit-of-work.service';
import { PartnerJobLockService } from './job-locks/job-lock.service';
import { PartnerInboxOperator } from './inbox/inbox-operator.service';
import { inboxProviders } from './inbox/inbox.providers';
import { packageTablesMismatch } from './package-tables.util';
import { PartnerTypeOrmInboxStore } from './inbox/typeorm-inbox.store';
import { PartnerPayoutOutbox } from './payouts/payout-outbox.service';
import { payoutOptionsForPartner } from './payouts/redrive-grace.policy';
import { PartnerVersionPin } from './version-pin/version-pin.service';
import {
  PARTNER_TYPEORM_OPTIONS,
  PARTNER_TYPEORM_RESOLVED_OPTIONS,
} from './partner-payments-typeorm.constants';
import {
  PartnerTypeOrmConfigurationError,
  resolvePartnerTypeOrmOptions,
  type PartnerPaymentsTypeOrmExtras,
  type PartnerPaymentsTypeOrmOptions,
  type PartnerTypeOrmResolvedOptions,
} from './partner-payments-typeorm.options';

/** A service of PartnerPaymentsModule, wherever the app registered it; `field` names who needs it. */
function partnerServiceOf<T>(ref: ModuleRef, type: abstract new (...args: never[]) => T, field: string): T {
  try {
    return ref.get(type, { strict: false });
  } catch {
    throw new PartnerTypeOrmConfigurationError(
      field,
      `needs ${type.name}: import PartnerPaymentsModule of @partner-payments/nestjs (isGlobal: true)`,
    );
  }
}

function providers(extras: PartnerPaymentsTypeOrmExtras): Provider[] {
  const dataSourceToken = getDataSourceToken(extras.dataSource);
  return [
    {
      // Boot-time validation: a bad option, or a DataSource on a driver the package does not
      // support, fails the boot with a message naming the field.
      provide: PARTNER_TYPEORM_RESOLVED_OPTIONS,
      inject: [PARTNER_TYPEORM_OPTIONS, dataSourceToken],
      useFactory: async (
        options: PartnerPaymentsTypeOrmOptions,
        dataSource: DataSource,
      ): Promise<PartnerTypeOrmResolvedOptions> => {
        const kind = databaseKindOf(dataSource);
        if (!kind)
          throw new PartnerTypeOrmConfigurationError(
            'dataSource',
            `${extras.dataSource ?? 'default'} uses the TypeORM driver ${String(dataSource.options.type)}; supported: postgres, better-sqlite3`,
          );
        const resolved = resolvePartnerTypeOrmOptions(options, kind);
        const mismatch = await packageTablesMismatch(dataSource, kind);
        if (mismatch) throw new PartnerTypeOrmConfigurationError('dataSource', mismatch);
        return resolved;
      },
    },
    {
      // One per DataSource: on SQLite it is the queue every statement of the app waits in.
      provide: PartnerUnitOfWork,
      inject: [dataSourceToken],
      useFactory: (dataSource: DataSource) => new PartnerUnitOfWork(dataSource),
    },
    {
      provide: PartnerJobLockService,
      inject: [dataSourceToken, PARTNER_TYPEORM_RESOLVED_OPTIONS],
      useFactory: (dataSource: DataSource, options: PartnerTypeOrmResolvedOptions) =>
        new PartnerJobLockService(dataSource, options),
    },
    ...inboxProviders(),
    {
      // PartnerPayoutsService is found when first used: an app that never submits a payout needs
      // no PartnerPaymentsModule to boot. With the module there (isGlobal), its options are read
      // at boot: `payouts.graceMs` must outlast one of its full partner calls.
      provide: PartnerPayoutOutbox,
      inject: [
        PartnerUnitOfWork,
        PARTNER_TYPEORM_RESOLVED_OPTIONS,
        PARTNER_TYPEORM_OPTIONS,
        ModuleRef,
        { token: PARTNER_PAYMENTS_OPTIONS, optional: true },
      ],
      useFactory: (
        uow: PartnerUnitOfWork,
        options: PartnerTypeOrmResolvedOptions,
        given: PartnerPaymentsTypeOrmOptions,
        ref: ModuleRef,
        partner: PartnerPaymentsModuleOptions | undefined,
      ) => {
        let payouts: PartnerPayoutsService | undefined;
        return new PartnerPayoutOutbox(
          uow,
          partner
            ? payoutOptionsForPartner(options.payouts, given.payouts?.graceMs !== undefined, partner)
            : options.payouts,
          () => (payouts ??= partnerServiceOf(ref, PartnerPayoutsService, 'payouts')),
        );
      },
    },
    {
      // Opt-in: without `versionPin` it schedules nothing and refuses every call.
      provide: PartnerVersionPin,
      inject: [PartnerUnitOfWork, PartnerJobLockService, PARTNER_TYPEORM_RESOLVED_OPTIONS, ModuleRef],
      useFactory: (
        uow: PartnerUnitOfWork,
        locks: PartnerJobLockService,
        options: PartnerTypeOrmResolvedOptions,
        ref: ModuleRef,
      ) =>
        new PartnerVersionPin(uow, locks, options.versionPin, {
          versioning: () => partnerServiceOf(ref, PartnerVersioningService, 'versionPin'),
          versionState: () => partnerServiceOf(ref, PartnerPaymentsClient, 'versionPin').versionState,
        }),
    },
  ];
}

export const { ConfigurableModuleClass, OPTIONS_TYPE, ASYNC_OPTIONS_TYPE } =
  new ConfigurableModuleBuilder<PartnerPaymentsTypeOrmOptions>({
    optionsInjectionToken: PARTNER_TYPEORM_OPTIONS,
  })
    .setClassMethodName('forRoot')
    .setFactoryMethodName('createPartnerTypeOrmOptions')
    .setExtras<PartnerPaymentsTypeOrmExtras>(
      { dataSource: undefined },
      (definition: DynamicModule, extras: PartnerPaymentsTypeOrmExtras): DynamicModule => ({
        ...definition,
        // Global: every feature module of the app injects PartnerUnitOfWork, PartnerJobLockService,
        // PartnerPayoutOutbox, PartnerVersionPin and the inbox's store and operator without importing this.
        global: true,
        providers: [...(definition.providers ?? []), ...providers(extras)],
        exports: [
          ...(definition.exports ?? []),
          PARTNER_TYPEORM_RESOLVED_OPTIONS,
          PartnerUnitOfWork,
          PartnerJobLockService,
          PartnerTypeOrmInboxStore,
          PartnerInboxOperator,
          PartnerPayoutOutbox,
          PartnerVersionPin,
        ],
      }),
    )
    .build();

/** The argument of `forRoot`: the options plus the extras (`dataSource`). */
export type PartnerPaymentsTypeOrmForRootOptions = typeof OPTIONS_TYPE;
/** The argument of `forRootAsync`: `{ imports, inject, useFactory | useClass | useExisting }` plus the extras. */
export type PartnerPaymentsTypeOrmAsyncOptions = typeof ASYNC_OPTIONS_TYPE;
/** What a `useClass` / `useExisting` options class implements. */
export interface PartnerTypeOrmOptionsFactory {
  createPartnerTypeOrmOptions(): PartnerPaymentsTypeOrmOptions | Promise<PartnerPaymentsTypeOrmOptions>;
}

/**
 * The package on your own DataSource: `forRoot(options?)` / `forRootAsync({ imports, inject,
 * useFactory })`, with `dataSource: 'name'` for a named `@nestjs/typeorm` connection. Global.
 */
@Module({})
export class PartnerPaymentsTypeOrmModule extends ConfigurableModuleClass {
  /** Every option has a default, so `forRoot()` alone is the common case. */
  static override forRoot(options: PartnerPaymentsTypeOrmForRootOptions = {}): DynamicModule {
    return super.forRoot(options);
  }
}
