import { isISO31661Alpha2, isISO31661Alpha3 } from 'class-validator';
import { COLOMBIAN_BANKS, COUNTRY_CODES, countryList } from './countries.constants';

describe('sandbox reference data (evidence §8)', () => {
  it('250 countries: every assigned ISO 3166-1 pair once, plus Kosovo (XK/XKX)', () => {
    expect(COUNTRY_CODES).toHaveLength(250);
    expect(new Set(COUNTRY_CODES.map(([a2]) => a2)).size).toBe(250);
    expect(new Set(COUNTRY_CODES.map(([, a3]) => a3)).size).toBe(250);
    const official = COUNTRY_CODES.filter(([a2]) => a2 !== 'XK');
    expect(official.filter(([a2, a3]) => !isISO31661Alpha2(a2) || !isISO31661Alpha3(a3))).toEqual([]);
    expect(COUNTRY_CODES).toEqual(
      expect.arrayContaining([
        ['US', 'USA'],
        ['MX', 'MEX'],
        ['CO', 'COL'],
        ['GB', 'GBR'],
      ]),
    );
  });

  it('entries are { alpha3, name, subdivisions[{ code, name }] } with ICU names, sorted by name', () => {
    const list = countryList();
    expect(list).toHaveLength(250);
    for (const c of list) {
      expect(c.alpha3).toMatch(/^[A-Z]{3}$/);
      expect(c.name.length).toBeGreaterThan(2);
    }
    const us = list.find((c) => c.alpha3 === 'USA');
    expect(us).toMatchObject({ name: 'United States' });
    expect(us?.subdivisions).toHaveLength(51);
    expect(us?.subdivisions).toContainEqual({ code: 'TX', name: 'Texas' });
    expect(list.find((c) => c.alpha3 === 'COL')?.subdivisions).toHaveLength(33);
    expect(list.find((c) => c.alpha3 === 'FRA')?.subdivisions).toEqual([]);
    // evidence §11 N37: a postal code pattern in Ruby's anchors, or null; each compiles as JS.
    for (const c of list.filter((row) => row.postal_code_format !== null))
      expect(
        () => new RegExp(String(c.postal_code_format).replace(/\\A/g, '^').replace(/\\Z/g, '$')),
      ).not.toThrow();
    expect(list.find((c) => c.alpha3 === 'USA')?.postal_code_format).toMatch(/^\\A/);
    const names = list.map((c) => c.name);
    expect(names).toEqual([...names].sort((a, b) => a.localeCompare(b, 'en')));
  });

  it('Colombian banks: distinct codes and names', () => {
    expect(new Set(COLOMBIAN_BANKS.map((b) => b.code)).size).toBe(COLOMBIAN_BANKS.length);
    expect(COLOMBIAN_BANKS).toContainEqual({ code: '1007', name: 'Bancolombia' });
  });
});
