/**
 * A user's own Nest app on its own DataSource, following the package README's "A safe payout
 * call": its own `ledger_payouts` table written in `onCreated`, PartnerPaymentsModule pointed at
 * the sandbox, PartnerPaymentsTypeOrmModule with the `payouts` options. Two apps on one database
 * are two replicas (or the app before and after a crash).
 */
import { Injectable, type DynamicModule, type INestApplicationContext } from '@nestjs/common';
import { Test } from '@nestjs/testing';
import { getDataSourceToken, TypeOrmModule } from '@nestjs/typeorm';
import { PartnerPaymentsModule, type PartnerPaymentsModuleOptions } from '@partner-payments/nestjs';
import type { PartnerSandbox } from '@partner-payments/testing';
import {
  PartnerPaymentsTypeOrmModule,
  PartnerPayoutOutbox,
  partnerTypeOrmEntities,
  partnerTypeOrmMigrations,
  type PartnerOutboxPayoutRequest,
  type PartnerPayoutCreatedHook,
  type PartnerPayoutOutboxOptions,
} from '@partner-payments/typeorm';
import {
  Column,
  DataSource,
  Entity,
  PrimaryColumn,
  Table,
  type MigrationInterface,
  type QueryRunner,
} from 'typeorm';
import { packageDataSourceOptions, type PackageDatabaseKind } from './typeorm-database.fixture';

@Entity({ name: 'ledger_payouts' })
export class LedgerPayoutEntity {
  @PrimaryColumn({ name: 'payout_id', type: 'varchar', length: 64 })
  payoutId!: string;

  @Column({ name: 'idempotency_key', type: 'varchar', length: 64 })
  idempotencyKey!: string;

  @Column({ name: 'amount', type: 'varchar', length: 32 })
  amount!: string;
}

class CreateLedger1700000000000 implements MigrationInterface {
  name = 'CreateLedger1700000000000';
  async up(q: QueryRunner): Promise<void> {
    await q.createTable(
      new Table({
        name: 'ledger_payouts',
        columns: [
          { name: 'payout_id', type: 'varchar', length: '64', isPrimary: true },
          { name: 'idempotency_key', type: 'varchar', length: '64' },
          { name: 'amount', type: 'varchar', length: '32' },
        ],
      }),
    );
  }
  async down(q: QueryRunner): Promise<void> {
    await q.dropTable('ledger_payouts');
  }
}

/** The user's payouts feature: its endpoint would call `pay`, its scheduled job `redrive`. */
@Injectable()
export class LedgerPayouts {
  /** Set by a test: the next onCreated throws after writing (its transaction must roll back). */
  failNextWrite = false;

  constructor(readonly outbox: PartnerPayoutOutbox) {}

  readonly onCreated: PartnerPayoutCreatedHook = async (payout, manager, request) => {
    await manager
      .createQueryBuilder()
      .insert()
      .into(LedgerPayoutEntity)
      .values({
        payoutId: payout.payoutId,
        idempotencyKey: request.idempotencyKey,
        amount: request.body.amount,
      })
      .orIgnore()
      .execute();
    if (this.failNextWrite) {
      this.failNextWrite = false;
      throw new Error('the ledger write failed');
    }
  };

  pay(key: string, request: PartnerOutboxPayoutRequest) {
    return this.outbox.submit(key, request, { onCreated: this.onCreated });
  }

  redrive() {
    return this.outbox.redrive({ onCreated: this.onCreated });
  }
}

export interface PayoutConsumer {
  ledger: LedgerPayouts;
  outbox: PartnerPayoutOutbox;
  dataSource: DataSource;
  close(): Promise<void>;
}

export const silent = { log: () => undefined, warn: () => undefined, error: () => undefined };

/** PartnerPaymentsModule (global) signed in to `sandbox`, with no webhook route and no log. */
export function sandboxPartnerModule(
  sandbox: PartnerSandbox,
  extra: Partial<PartnerPaymentsModuleOptions> = {},
): DynamicModule {
  return PartnerPaymentsModule.forRoot({
    isGlobal: true,
    baseUrl: sandbox.baseUrl,
    apiKey: sandbox.credentials.apiKey,
    clientId: sandbox.credentials.clientId,
    password: sandbox.credentials.password,
    clientUuid: sandbox.credentials.clientUuid,
    webhookController: false,
    logger: silent,
    ...extra,
  });
}

/** The consumer app on `location`; partner calls time out after `timeoutMs`, never retried. */
export async function startPayoutConsumer(
  kind: PackageDatabaseKind,
  location: string,
  sandbox: PartnerSandbox,
  payouts: PartnerPayoutOutboxOptions,
  timeoutMs = 1_500,
): Promise<PayoutConsumer> {
  const ref: INestApplicationContext = await Test.createTestingModule({
    imports: [
      TypeOrmModule.forRoot({
        ...packageDataSourceOptions(kind, location, {
          entities: [...partnerTypeOrmEntities, LedgerPayoutEntity],
          migrations: [...partnerTypeOrmMigrations, CreateLedger1700000000000],
        }),
        migrationsRun: true,
      }),
      sandboxPartnerModule(sandbox, { timeoutMs, maxRetries: 0 }),
      PartnerPaymentsTypeOrmModule.forRoot({ payouts }),
    ],
    providers: [LedgerPayouts],
  })
    .setLogger(silent)
    .compile();
  await ref.init();
  return {
    ledger: ref.get(LedgerPayouts),
    outbox: ref.get(PartnerPayoutOutbox),
    dataSource: ref.get<DataSource>(getDataSourceToken()),
    close: () => ref.close(),
  };
}
