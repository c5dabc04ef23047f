import { randomBytes } from 'node:crypto';
import { DataSource } from 'typeorm';
import { PartnerUnitOfWork } from '../database/unit-of-work.service';
import { PartnerTypeOrmConfigurationError } from '../partner-payments-typeorm.errors';
import {
  resolvePartnerTypeOrmOptions,
  type PartnerPaymentsTypeOrmOptions,
} from '../partner-payments-typeorm.options';
import { PartnerInboxKeyRing, parseInboxKeys } from './at-rest/inbox-key-ring.util';
import { PartnerTypeOrmInboxStore } from './typeorm-inbox.store';

const KEY = randomBytes(32).toString('base64');
const sealingKeys = `k2:${randomBytes(32).toString('base64')},k1:${KEY}`;

function refusal(options: PartnerPaymentsTypeOrmOptions, kind: 'sqlite' | 'postgres' = 'sqlite') {
  try {
    resolvePartnerTypeOrmOptions(options, kind);
  } catch (error) {
    return error;
  }
  return undefined;
}

describe('the inbox options', () => {
  it('fill the defaults, the durability by database, and build the key ring (the first key seals)', () => {
    const sqlite = resolvePartnerTypeOrmOptions({ inbox: { sealingKeys } }, 'sqlite').inbox;
    expect(sqlite).toMatchObject({
      maxAttempts: 5,
      recordTimeoutMs: 10_000,
      processingDurability: 'relaxed',
      retentionDays: 30,
      redeliveryBatchSize: 100,
      redeliveryConcurrency: 4,
    });
    expect(sqlite?.keys.currentId).toBe('k2');
    expect(sqlite?.keys.ids).toEqual(['k2', 'k1']);
    expect(
      resolvePartnerTypeOrmOptions({ inbox: { sealingKeys } }, 'postgres').inbox?.processingDurability,
    ).toBe('full');
  });

  it('take a key ring as it is, and keep the values given', () => {
    const ring = new PartnerInboxKeyRing(parseInboxKeys(`k1:${KEY}`));
    const inbox = {
      sealingKeys: ring,
      maxAttempts: 2,
      retentionDays: 7,
      processingDurability: 'full' as const,
    };
    expect(resolvePartnerTypeOrmOptions({ inbox }, 'sqlite').inbox).toMatchObject({
      keys: ring,
      maxAttempts: 2,
      retentionDays: 7,
      processingDurability: 'full',
    });
  });

  it.each([
    [{}, 'inbox.sealingKeys'],
    [{ sealingKeys: '' }, 'inbox.sealingKeys'],
    [{ sealingKeys: KEY }, 'inbox.sealingKeys'],
    [{ sealingKeys: `k1:${KEY.slice(4)}` }, 'inbox.sealingKeys'],
    [{ sealingKeys, maxAttempts: 0 }, 'inbox.maxAttempts'],
    [{ sealingKeys, maxAttempts: 2.5 }, 'inbox.maxAttempts'],
    [{ sealingKeys, recordTimeoutMs: 30_000 }, 'inbox.recordTimeoutMs'],
    [{ sealingKeys, retentionDays: 0 }, 'inbox.retentionDays'],
    [{ sealingKeys, redeliveryBatchSize: 5000 }, 'inbox.redeliveryBatchSize'],
    [{ sealingKeys, redeliveryConcurrency: Number.NaN }, 'inbox.redeliveryConcurrency'],
    [{ sealingKeys, processingDurability: 'off' }, 'inbox.processingDurability'],
  ])('refuse %j, naming %s, never printing a key', (inbox, field) => {
    const caught = refusal({ inbox: inbox as never });
    expect(caught).toBeInstanceOf(PartnerTypeOrmConfigurationError);
    expect(caught).toMatchObject({ field, message: expect.stringContaining(field) });
    expect((caught as Error).message).not.toContain(KEY.slice(8, 30));
  });

  it("refuse 'relaxed' processing on PostgreSQL, where the app outlives a lost commit", () => {
    const caught = refusal({ inbox: { sealingKeys, processingDurability: 'relaxed' } }, 'postgres');
    expect(caught).toMatchObject({ field: 'inbox.processingDurability' });
  });

  it('are validated when the store is built directly, the batching ones naming batching.<field>', () => {
    const uow = new PartnerUnitOfWork(new DataSource({ type: 'better-sqlite3', database: ':memory:' }));
    const keys = new PartnerInboxKeyRing(parseInboxKeys(`k1:${KEY}`));
    // A 0 would leave the batch loops taking nothing from their queue, forever.
    for (const field of ['maxRecordRows', 'maxProcessRows', 'processConcurrency'] as const) {
      const build = () => new PartnerTypeOrmInboxStore(uow, keys, { batching: { [field]: 0 } });
      expect(build).toThrow(PartnerTypeOrmConfigurationError);
      expect(build).toThrow(`batching.${field} must be an integer from 1 to`);
    }
    expect(() => new PartnerTypeOrmInboxStore(uow, keys, { batching: { maxWaitMs: Number.NaN } })).toThrow(
      'batching.maxWaitMs must be an integer from 0 to 1000, got NaN',
    );
    expect(() => new PartnerTypeOrmInboxStore(uow, keys, { batching: { maxProcessRows: 8 } })).not.toThrow();
  });
});
