import {
  AMOUNT_PATTERN,
  amountCents,
  formatCents,
  isPositiveAmount,
  normaliseAmount,
  parseAmountCents,
  parsePercent,
  percentOfCents,
} from './amounts.util';

describe('amounts on exact cents (evidence §6: decimal strings matching ^[0-9]+(\\.[0-9]{1,2})?$)', () => {
  it('reads an amount into BigInt cents from its digits', () => {
    expect(parseAmountCents('0')).toBe(0n);
    expect(parseAmountCents('0.01')).toBe(1n);
    expect(parseAmountCents('5')).toBe(500n);
    expect(parseAmountCents('100.00')).toBe(10000n);
    expect(parseAmountCents('007.50')).toBe(750n);
  });

  it('"0.1" is ten cents, the same as "0.10", not one cent', () => {
    expect(parseAmountCents('0.1')).toBe(10n);
    expect(parseAmountCents('0.10')).toBe(10n);
    expect(parseAmountCents('0.01')).toBe(1n);
    expect(normaliseAmount('0.1')).toBe('0.10');
    expect(normaliseAmount('0.10')).toBe('0.10');
  });

  it('keeps every cent of 15-digit amounts (a double turns them into 1000000000000000)', () => {
    expect(parseAmountCents('999999999999999.99')).toBe(99999999999999999n);
    expect(formatCents(99999999999999999n)).toBe('999999999999999.99');
    expect(normaliseAmount('999999999999999.99')).toBe('999999999999999.99');
    expect(normaliseAmount('999999999999999.9')).toBe('999999999999999.90');
    expect(normaliseAmount('123456789012345.67')).toBe('123456789012345.67');
    // A cent apart stays a cent apart.
    expect(amountCents('999999999999999.99') - amountCents('999999999999999.98')).toBe(1n);
    // Beyond 15 digits too: the partner records no limit, so none is invented here.
    expect(normaliseAmount('12345678901234567890.12')).toBe('12345678901234567890.12');
  });

  it('round-trips: format(parse(x)) is x with 2 decimals, parse(format(c)) is c', () => {
    for (const [input, expected] of [
      ['0', '0.00'],
      ['0.5', '0.50'],
      ['1', '1.00'],
      ['1.2', '1.20'],
      ['1.23', '1.23'],
      ['10.05', '10.05'],
      ['0099.99', '99.99'],
      ['100000000000000', '100000000000000.00'],
      ['999999999999999.99', '999999999999999.99'],
    ])
      expect(normaliseAmount(input)).toBe(expected);
    for (const cents of [0n, 1n, 9n, 10n, 99n, 100n, 101n, 12345n, 99999999999999999n, 100000000000000000n])
      expect(amountCents(formatCents(cents))).toBe(cents);
  });

  it('formats negative cents (an overdrawn balance after a refund) with the sign first', () => {
    expect(formatCents(-1n)).toBe('-0.01');
    expect(formatCents(-250n)).toBe('-2.50');
    expect(formatCents(-99999999999999999n)).toBe('-999999999999999.99');
    expect(formatCents(0n)).toBe('0.00');
  });

  it('rejects anything that does not match the amount pattern', () => {
    for (const bad of [
      '',
      '.5',
      '5.',
      '1.234',
      '-1.00',
      '+1.00',
      ' 1.00',
      '1.00 ',
      '1,000.00',
      '1e3',
      '0x10',
      'NaN',
      'Infinity',
      '1.2.3',
      '١٢', // non-ASCII digits are not [0-9]
    ]) {
      expect(AMOUNT_PATTERN.test(bad)).toBe(false);
      expect(parseAmountCents(bad)).toBeUndefined();
      expect(() => amountCents(bad)).toThrow(RangeError);
      expect(isPositiveAmount(bad)).toBe(false);
    }
    for (const notString of [5, 5.5, null, undefined, {}, ['1.00'], 100n])
      expect(parseAmountCents(notString)).toBeUndefined();
  });

  it('positive means above zero cents, exactly', () => {
    expect(isPositiveAmount('0')).toBe(false);
    expect(isPositiveAmount('0.00')).toBe(false);
    expect(isPositiveAmount('0.01')).toBe(true);
    expect(isPositiveAmount('999999999999999.99')).toBe(true);
  });

  it('reads a percentage as an exact fraction of its shortest decimal form', () => {
    expect(parsePercent(2.5)).toEqual({ numerator: 25n, denominator: 1000n });
    expect(parsePercent(1)).toEqual({ numerator: 1n, denominator: 100n });
    expect(parsePercent('0.125')).toEqual({ numerator: 125n, denominator: 100000n });
    for (const bad of [-1, Number.NaN, Number.POSITIVE_INFINITY, 1e-7, 1e21, '2,5', '-2.5', ''])
      expect(() => parsePercent(bad)).toThrow(RangeError);
  });

  it('takes a percentage of cents, rounded half-up to a whole cent', () => {
    expect(percentOfCents(20000n, 2.5)).toBe(500n); // 2.5% of 200.00 = 5.00
    expect(percentOfCents(10000n, 1)).toBe(100n);
    expect(percentOfCents(100n, 2.5)).toBe(3n); // 2.5 cents → 3 (half up)
    expect(percentOfCents(140n, 2.5)).toBe(4n); // 3.5 cents → 4
    expect(percentOfCents(139n, 2.5)).toBe(3n); // 3.475 cents → 3
    expect(percentOfCents(0n, 2.5)).toBe(0n);
    expect(percentOfCents(12345n, 0)).toBe(0n);
    expect(percentOfCents(100n, 1.005)).toBe(1n); // 1.005 cents → 1
    // 1.5 % of 999999999999999.99 is 1499999999999999.985 cents → 1500000000000000 (every digit counts).
    expect(percentOfCents(99999999999999999n, 1.5)).toBe(1500000000000000n);
    expect(formatCents(percentOfCents(99999999999999999n, 1.5))).toBe('15000000000000.00');
    expect(() => percentOfCents(-1n, 1)).toThrow(RangeError);
  });
});
