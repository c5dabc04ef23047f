import { Global, Module, type DynamicModule } from '@nestjs/common';
import { Test } from '@nestjs/testing';
import { getDataSourceToken } from '@nestjs/typeorm';
import { PartnerPaymentsModule } from '@partner-payments/nestjs';
import { DataSource } from 'typeorm';
import { PartnerInboxOperator } from './inbox/inbox-operator.service';
import { PartnerTypeOrmInboxStore } from './inbox/typeorm-inbox.store';
import { PartnerJobLockService } from './job-locks/job-lock.service';
import { PartnerPaymentsTypeOrmModule } from './partner-payments-typeorm.module';
import { PartnerTypeOrmConfigurationError } from './partner-payments-typeorm.options';
import { PartnerPayoutOutbox } from './payouts/payout-outbox.service';
import { PartnerVersionPin } from './version-pin/version-pin.service';

/**
 * What @nestjs/typeorm's TypeOrmModule.forRoot registers: a DataSource under its token. Never
 * connected: the module reads its options at boot and nothing more. A driver TypeORM cannot load
 * here (mysql) is given as its options alone.
 */
function dataSources(named: Record<string, DataSource | { options: { type: string } }>): DynamicModule {
  @Global()
  @Module({})
  class FakeTypeOrmCore {}
  const providers = Object.entries(named).map(([name, value]) => ({
    provide: getDataSourceToken(name === 'default' ? undefined : name),
    useValue: value,
  }));
  return { module: FakeTypeOrmCore, providers, exports: providers.map((p) => p.provide) };
}

describe('PartnerPaymentsTypeOrmModule', () => {
  it('gives PartnerJobLockService on the default DataSource, with the options given', async () => {
    const sqlite = new DataSource({ type: 'better-sqlite3', database: ':memory:' });
    const ref = await Test.createTestingModule({
      imports: [dataSources({ default: sqlite }), PartnerPaymentsTypeOrmModule.forRoot({ holder: 'unit' })],
    }).compile();
    expect(ref.get(PartnerJobLockService).holder).toBe('unit');
  });

  it('joins a named DataSource', async () => {
    const sqlite = new DataSource({ type: 'better-sqlite3', database: ':memory:' });
    const ref = await Test.createTestingModule({
      imports: [
        dataSources({ reports: sqlite }),
        PartnerPaymentsTypeOrmModule.forRoot({ dataSource: 'reports' }),
      ],
    }).compile();
    expect(ref.get(PartnerJobLockService)).toBeInstanceOf(PartnerJobLockService);
  });

  it('refuses a DataSource on another driver at boot, naming the option', async () => {
    const boot = Test.createTestingModule({
      imports: [
        dataSources({ reports: { options: { type: 'mysql' } } }),
        PartnerPaymentsTypeOrmModule.forRoot({ dataSource: 'reports' }),
      ],
    }).compile();
    await expect(boot).rejects.toThrow(/dataSource reports uses the TypeORM driver mysql/);
  });

  it('refuses bad payout options at boot, naming the field', async () => {
    const sqlite = new DataSource({ type: 'better-sqlite3', database: ':memory:' });
    const boot = Test.createTestingModule({
      imports: [
        dataSources({ default: sqlite }),
        PartnerPaymentsTypeOrmModule.forRoot({ payouts: { graceMs: 600_000, maxAgeMs: 300_000 } }),
      ],
    }).compile();
    await expect(boot).rejects.toBeInstanceOf(PartnerTypeOrmConfigurationError);
    await expect(boot).rejects.toMatchObject({ field: 'payouts.maxAgeMs' });
  });

  it('with PartnerPaymentsModule global, refuses at boot a payouts.graceMs shorter than one of its full calls', async () => {
    const partner = (timeoutMs: number) =>
      PartnerPaymentsModule.forRoot({
        isGlobal: true,
        baseUrl: 'http://127.0.0.1:9',
        apiKey: 'key',
        clientId: 'client',
        password: 'password',
        timeoutMs,
        maxRetries: 0,
        webhookController: false,
      });
    const boot = (timeoutMs: number, graceMs?: number) =>
      Test.createTestingModule({
        imports: [
          dataSources({ default: new DataSource({ type: 'better-sqlite3', database: ':memory:' }) }),
          PartnerPaymentsTypeOrmModule.forRoot({ payouts: { graceMs } }),
          partner(timeoutMs),
        ],
      }).compile();
    // No retries: two token calls and the create, 4 x timeoutMs.
    await expect(boot(5_000, 19_999)).rejects.toMatchObject({
      name: 'PartnerTypeOrmConfigurationError',
      field: 'payouts.graceMs',
      message: expect.stringContaining('must be at least 20000 (ms), got 19999'),
    });
    const options = (ref: { get(t: typeof PartnerPayoutOutbox): PartnerPayoutOutbox }) =>
      (ref.get(PartnerPayoutOutbox) as unknown as { options: { graceMs: number } }).options;
    expect(options(await boot(5_000, 20_000)).graceMs).toBe(20_000);
    // Unset: the default (300000), or the minimum when that is longer.
    expect(options(await boot(5_000)).graceMs).toBe(300_000);
    expect(options(await boot(100_000)).graceMs).toBe(400_000);
  });

  it('gives PartnerPayoutOutbox without PartnerPaymentsModule, and names the missing module on first use', async () => {
    const sqlite = new DataSource({ type: 'better-sqlite3', database: ':memory:' });
    const ref = await Test.createTestingModule({
      imports: [dataSources({ default: sqlite }), PartnerPaymentsTypeOrmModule.forRoot()],
    }).compile();
    const outbox = ref.get(PartnerPayoutOutbox);
    const lookup = (outbox as unknown as { partnerPayouts: () => unknown }).partnerPayouts;
    expect(lookup).toThrow(PartnerTypeOrmConfigurationError);
    expect(lookup).toThrow(/payouts needs PartnerPayoutsService: import PartnerPaymentsModule/);
  });

  it('is global', () => {
    expect(PartnerPaymentsTypeOrmModule.forRoot()).toMatchObject({ global: true });
    expect(PartnerPaymentsTypeOrmModule.forRoot().exports).toEqual(
      expect.arrayContaining([PartnerJobLockService, PartnerPayoutOutbox]),
    );
  });

  it('without the inbox option, gives an inbox store and operator that refuse every use, naming it', async () => {
    const sqlite = new DataSource({ type: 'better-sqlite3', database: ':memory:' });
    const ref = await Test.createTestingModule({
      imports: [dataSources({ default: sqlite }), PartnerPaymentsTypeOrmModule.forRoot()],
    }).compile();
    // What PartnerPaymentsModule's boot check of `inboxStore` reads first.
    expect(() => ref.get(PartnerTypeOrmInboxStore).record).toThrow(/inbox is not configured/);
    await expect(ref.get(PartnerInboxOperator).drain()).rejects.toThrow(/inbox is not configured/);
    await expect(ref.get(PartnerInboxOperator).countByState()).rejects.toThrow(/inbox is not configured/);
  });

  it('without versionPin, gives a PartnerVersionPin that schedules nothing and refuses every call, naming it', async () => {
    const sqlite = new DataSource({ type: 'better-sqlite3', database: ':memory:' });
    const ref = await Test.createTestingModule({
      imports: [dataSources({ default: sqlite }), PartnerPaymentsTypeOrmModule.forRoot()],
    }).compile();
    const pins = ref.get(PartnerVersionPin);
    expect(pins.enabled).toBe(false);
    await pins.onApplicationBootstrap(); // never connected: a read would fail here
    await expect(pins.pin()).rejects.toThrow(/versionPin is not configured/);
    await expect(pins.state()).rejects.toThrow(/versionPin is not configured/);
  });

  it('refuses a bad versionPin at boot, naming the field', async () => {
    const sqlite = new DataSource({ type: 'better-sqlite3', database: ':memory:' });
    const boot = Test.createTestingModule({
      imports: [
        dataSources({ default: sqlite }),
        PartnerPaymentsTypeOrmModule.forRoot({ versionPin: { version: 'latest', account: 'client-1' } }),
      ],
    }).compile();
    await expect(boot).rejects.toMatchObject({ field: 'versionPin.version' });
  });
});
