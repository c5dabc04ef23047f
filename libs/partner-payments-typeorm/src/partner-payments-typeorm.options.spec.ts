import { hostname } from 'node:os';
import {
  DEFAULT_SQLITE_LEASE_MS,
  PartnerTypeOrmConfigurationError,
  resolvePartnerTypeOrmOptions,
} from './partner-payments-typeorm.options';

describe('resolvePartnerTypeOrmOptions', () => {
  it('fills the defaults', () => {
    expect(resolvePartnerTypeOrmOptions()).toEqual({
      holder: `${hostname()}:${process.pid}`,
      sqliteLeaseMs: DEFAULT_SQLITE_LEASE_MS,
      payouts: { graceMs: 300_000, maxAgeMs: 86_400_000, batchSize: 50 },
    });
  });

  it('keeps what is given', () => {
    expect(
      resolvePartnerTypeOrmOptions({
        holder: 'replica-a',
        sqliteLeaseMs: 5_000,
        payouts: { graceMs: 12_000, maxAgeMs: 3_600_000, batchSize: 1 },
      }),
    ).toEqual({
      holder: 'replica-a',
      sqliteLeaseMs: 5_000,
      payouts: { graceMs: 12_000, maxAgeMs: 3_600_000, batchSize: 1 },
    });
  });

  it.each([
    [{ holder: '' }, 'holder'],
    [{ holder: 'x'.repeat(129) }, 'holder'],
    [{ sqliteLeaseMs: 2_999 }, 'sqliteLeaseMs'],
    [{ sqliteLeaseMs: 1.5e3 }, 'sqliteLeaseMs'],
    [{ sqliteLeaseMs: Number.NaN }, 'sqliteLeaseMs'],
    [{ sqliteLeaseMs: 3_600_001 }, 'sqliteLeaseMs'],
    [{ payouts: 'soon' }, 'payouts'],
    [{ payouts: { graceMs: 999 } }, 'payouts.graceMs'],
    [{ payouts: { graceMs: 1_500.5 } }, 'payouts.graceMs'],
    [{ payouts: { graceMs: Number.NaN } }, 'payouts.graceMs'],
    // No time between the grace and the maximum age: every request would go to review unsent.
    [{ payouts: { graceMs: 60_000, maxAgeMs: 60_000 } }, 'payouts.maxAgeMs'],
    [{ payouts: { maxAgeMs: 200_000 } }, 'payouts.maxAgeMs'],
    // Past the partner's 24 h key TTL a re-send could create a second payout.
    [{ payouts: { maxAgeMs: 86_400_001 } }, 'payouts.maxAgeMs'],
    [{ payouts: { batchSize: 0 } }, 'payouts.batchSize'],
    [{ payouts: { batchSize: 1001 } }, 'payouts.batchSize'],
    [{ payouts: { batchSize: 2.5 } }, 'payouts.batchSize'],
  ])('refuses %j, naming %s', (options, field) => {
    let caught: unknown;
    try {
      resolvePartnerTypeOrmOptions(options as never);
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(PartnerTypeOrmConfigurationError);
    expect(caught).toMatchObject({ field, message: expect.stringContaining(field) });
  });
});
