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
    });
  });

  it('keeps what is given', () => {
    expect(resolvePartnerTypeOrmOptions({ holder: 'replica-a', sqliteLeaseMs: 5_000 })).toEqual({
      holder: 'replica-a',
      sqliteLeaseMs: 5_000,
    });
  });

  it.each([
    [{ holder: '' }, 'holder'],
    [{ holder: 'x'.repeat(129) }, 'holder'],
    [{ sqliteLeaseMs: 2_999 }, 'sqliteLeaseMs'],
    [{ sqliteLeaseMs: 1.5e3 }, 'sqliteLeaseMs'],
    [{ sqliteLeaseMs: Number.NaN }, 'sqliteLeaseMs'],
    [{ sqliteLeaseMs: 3_600_001 }, 'sqliteLeaseMs'],
  ])('refuses %j, naming %s', (options, field) => {
    let caught: unknown;
    try {
      resolvePartnerTypeOrmOptions(options);
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(PartnerTypeOrmConfigurationError);
    expect(caught).toMatchObject({ field, message: expect.stringContaining(field) });
  });
});
