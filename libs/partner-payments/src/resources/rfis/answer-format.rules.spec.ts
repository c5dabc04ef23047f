import { checkIdentifierFormat, isAtLeastAge } from './answer-format.rules';

describe('isAtLeastAge', () => {
  const now = new Date('2026-06-15T00:30:00Z');
  it('is inclusive on the birthday and uses UTC', () => {
    expect(isAtLeastAge({ year: 2008, month: 6, day: 15 }, 18, now)).toBe(true);
    expect(isAtLeastAge({ year: 2008, month: 6, day: 16 }, 18, now)).toBe(false);
    expect(isAtLeastAge({ year: 2026, month: 6, day: 15 }, 0, now)).toBe(true);
    expect(isAtLeastAge({ year: 2026, month: 6, day: 16 }, 0, now)).toBe(false);
  });
});

describe('checkIdentifierFormat', () => {
  it('is case-insensitive on the format name and passes unknown or missing formats', () => {
    expect(checkIdentifierFormat('bad', 'EMAIL')).toBe('must be an email address');
    expect(checkIdentifierFormat('bad', undefined)).toBeUndefined();
    expect(checkIdentifierFormat('bad', 7)).toBeUndefined();
    expect(checkIdentifierFormat('bad', 'iban')).toBeUndefined();
  });
});

describe('identifier formats (provider-facts "RFIs")', () => {
  it.each([
    ['ein', '12-3456789', '123-456789'],
    ['ein', '123456789', '12345678'],
    ['ssn', '123-45-6789', '123-456-789'],
    ['ssn', '123456789', '12345-6789'],
    ['email', 'a.b@example.com', 'a@b'],
    ['e164', '+14155550100', '4155550100'],
    ['e164', '+442071234567', '+04155550100'],
    ['url', 'https://example.com/x?y=1', 'ftp://example.com'],
    ['url', 'http://localhost:3000', ' https://example.com'],
    ['country_alpha3', 'USA', 'US'],
    ['country_alpha3', 'deu', 'U5A'],
  ])('%s: %s passes, %s fails', (format, good, bad) => {
    expect(checkIdentifierFormat(good, format)).toBeUndefined();
    expect(checkIdentifierFormat(bad, format)).toMatch(/^must be/);
  });
});
