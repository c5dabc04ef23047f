import { PartnerTypeOrmConfigurationError } from '../partner-payments-typeorm.errors';
import { resolvePayoutOutboxOptions, type PartnerPayoutOutboxResolvedOptions } from './payout-outbox.options';
import { partnerMinimumRedriveGraceMs, payoutOptionsForPartner } from './redrive-grace.policy';

const resolved = (graceMs?: number, maxAgeMs?: number) =>
  resolvePayoutOutboxOptions({ graceMs, maxAgeMs }) as PartnerPayoutOutboxResolvedOptions;

describe('partnerMinimumRedriveGraceMs: one full partner call of the module', () => {
  it('two token calls and the call, each with its retries and capped Retry-After waits', () => {
    // The module's defaults: 30 s, 2 retries, Retry-After capped at 30 s: 10 x 30 s + 6 x 30 s.
    expect(partnerMinimumRedriveGraceMs(30_000, 2)).toBe(480_000);
    expect(partnerMinimumRedriveGraceMs(10_000, 2)).toBe(280_000);
    expect(partnerMinimumRedriveGraceMs(2_000, 0)).toBe(8_000);
    expect(partnerMinimumRedriveGraceMs(1_000, 1, 5_000)).toBe(7_000 + 15_000);
  });
});

describe('payoutOptionsForPartner: payouts.graceMs against the module options', () => {
  it('refuses a graceMs given below the minimum, naming the field and the minimum', () => {
    const check = () => payoutOptionsForPartner(resolved(3_000), true, { timeoutMs: 30_000 });
    expect(check).toThrow(PartnerTypeOrmConfigurationError);
    expect(check).toThrow(/payouts\.graceMs must be at least 480000 \(ms\), got 3000/);
    const thrown = (() => {
      try {
        return check();
      } catch (error) {
        return error;
      }
    })();
    expect(thrown).toMatchObject({ field: 'payouts.graceMs' });
    // The retry options count: a longer Retry-After cap raises the minimum.
    expect(() =>
      payoutOptionsForPartner(resolved(8_000), true, { timeoutMs: 2_000, maxRetries: 0 }),
    ).not.toThrow();
    expect(() => payoutOptionsForPartner(resolved(7_999), true, { timeoutMs: 2_000, maxRetries: 0 })).toThrow(
      /at least 8000/,
    );
    expect(() =>
      payoutOptionsForPartner(resolved(250_000), true, {
        timeoutMs: 10_000,
        maxRetries: 2,
        retry: { maxRetryAfterMs: 10_000 },
      }),
    ).not.toThrow();
    expect(() =>
      payoutOptionsForPartner(resolved(250_000), true, { timeoutMs: 10_000, maxRetries: 2 }),
    ).toThrow(/at least 280000/);
  });

  it('keeps a graceMs at or over the minimum as given', () => {
    const given = resolved(20_000);
    expect(payoutOptionsForPartner(given, true, { timeoutMs: 5_000, maxRetries: 0 })).toBe(given);
  });

  it('left unset, the default grows to the minimum, still below maxAgeMs', () => {
    expect(payoutOptionsForPartner(resolved(), false, {}).graceMs).toBe(480_000);
    expect(payoutOptionsForPartner(resolved(), false, { timeoutMs: 5_000, maxRetries: 0 }).graceMs).toBe(
      300_000,
    );
    expect(() => payoutOptionsForPartner(resolved(undefined, 400_000), false, {})).toThrow(
      /payouts\.maxAgeMs must be greater than payouts\.graceMs \(480000 ms/,
    );
  });
});
