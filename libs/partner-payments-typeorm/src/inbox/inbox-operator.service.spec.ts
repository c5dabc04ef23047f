import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Global, Module } from '@nestjs/common';
import { Test } from '@nestjs/testing';
import { getDataSourceToken } from '@nestjs/typeorm';
import { PartnerLocalValidationError } from '@partner-payments/nestjs';
import type { DataSource } from 'typeorm';
import { openPackageSqliteFile } from '../database/sqlite-file.fixture';
import { PartnerPaymentsTypeOrmModule } from '../partner-payments-typeorm.module';
import { generateInboxKeyEntry } from './at-rest/inbox-key-ring.util';
import { PartnerInboxOperator } from './inbox-operator.service';

/** The operator's arguments, as an app's admin route passes them on (a query string's Number()). */
describe('PartnerInboxOperator arguments', () => {
  let dir: string;
  let ds: DataSource;
  let operator: PartnerInboxOperator;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'inbox-operator-'));
    ds = await openPackageSqliteFile(join(dir, 'inbox.sqlite'));
    @Global()
    @Module({ providers: [{ provide: getDataSourceToken(), useValue: ds }], exports: [getDataSourceToken()] })
    class UserTypeOrm {}
    const ref = await Test.createTestingModule({
      imports: [
        UserTypeOrm,
        PartnerPaymentsTypeOrmModule.forRoot({ inbox: { sealingKeys: generateInboxKeyEntry('k1') } }),
      ],
    }).compile();
    operator = ref.get(PartnerInboxOperator);
  });
  afterAll(async () => {
    await ds?.destroy();
    rmSync(dir, { recursive: true, force: true });
  });

  const refusal = (field: string) =>
    expect.objectContaining({
      constructor: PartnerLocalValidationError,
      fieldErrors: [expect.objectContaining({ field })],
    });

  it.each([0, -1, Number.NaN, 1.5, 1001])('refuses deadLetters(%p), naming limit', async (limit) => {
    await expect(operator.deadLetters(limit)).rejects.toEqual(refusal('limit'));
  });

  it('lists dead letters for a limit in range', async () => {
    await expect(operator.deadLetters(1000)).resolves.toEqual([]);
  });

  it.each([{ limit: 0 }, { limit: Number.NaN }, { minAgeMs: -1 }, { minAgeMs: Number.NaN }])(
    'refuses drain(%p), naming the field',
    async (options) => {
      await expect(operator.drain(options)).rejects.toEqual(refusal(Object.keys(options)[0]));
    },
  );

  it.each([0, -5, Number.NaN, 2.5])(
    'refuses prune and reseal with batchSize %p, naming it',
    async (batchSize) => {
      await expect(operator.prune({ batchSize })).rejects.toEqual(refusal('batchSize'));
      await expect(operator.reseal({ batchSize })).rejects.toEqual(refusal('batchSize'));
    },
  );

  it('refuses redeliverDead with more than 1000 ids, or an id that is not a string, naming it', async () => {
    const many = Array.from({ length: 1001 }, (_, i) => `e-${i}`);
    await expect(operator.redeliverDead(many)).rejects.toEqual(refusal('eventIds'));
    await expect(operator.redeliverDead(['e-1', 42 as unknown as string])).rejects.toEqual(
      refusal('eventIds[1]'),
    );
    // Accepted ids reach the drain (here without PartnerPaymentsModule to drain through).
    await expect(operator.redeliverDead(['e-1'])).rejects.toThrow(/PartnerWebhookProcessingService/);
  });

  it('refuses prune at an invalid date, naming now', async () => {
    await expect(operator.prune({ now: new Date(Number.NaN) })).rejects.toEqual(refusal('now'));
  });

  it('prunes with a batch size in range', async () => {
    await expect(operator.prune({ batchSize: 10 })).resolves.toMatchObject({ ran: true, deleted: 0 });
  });
});
