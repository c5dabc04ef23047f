import { runInNewContext } from 'node:vm';
import { PartnerFieldError, PartnerLocalValidationError } from '../../errors/partner.errors';
import {
  collectMetadataErrors,
  metadataFilterToQueryParams,
  validateMetadata,
  validateMetadataFilter,
} from './metadata.rules';

function fieldErrorsOf(fn: () => unknown): PartnerFieldError[] {
  try {
    fn();
  } catch (e) {
    expect(e).toBeInstanceOf(PartnerLocalValidationError);
    return (e as PartnerLocalValidationError).fieldErrors;
  }
  throw new Error('expected a PartnerLocalValidationError');
}

describe('validateMetadata (spec 2.5 / 8)', () => {
  it('accepts an empty map and a map at every limit', () => {
    expect(() => validateMetadata({})).not.toThrow();
    const full: Record<string, string> = {};
    for (let i = 0; i < 50; i++) full[`k${i}`] = 'v';
    full['k0'] = 'x'.repeat(500);
    full['a'.repeat(40)] = 'ok';
    delete full['k49'];
    expect(Object.keys(full)).toHaveLength(50);
    expect(() => validateMetadata(full)).not.toThrow();
  });

  it('refuses 51 entries, naming the map itself', () => {
    const big: Record<string, string> = {};
    for (let i = 0; i < 51; i++) big[`k${i}`] = 'v';
    expect(fieldErrorsOf(() => validateMetadata(big))).toEqual([
      { field: 'metadata', message: 'at most 50 entries (got 51)' },
    ]);
  });

  it('refuses non-objects', () => {
    for (const bad of [null, 'x', 3, ['a'], new Map([['a', 'b']])]) {
      const errs = fieldErrorsOf(() => validateMetadata(bad));
      expect(errs).toHaveLength(1);
      expect(errs[0].field).toBe('metadata');
    }
  });

  it('collects every bad key and value in one error, with field paths', () => {
    const errs = fieldErrorsOf(() =>
      validateMetadata({
        '': 'empty key',
        ['k'.repeat(41)]: 'long key',
        'a[b': 'bracket',
        'c]': 'bracket',
        num: 5 as unknown as string,
        nul: null as unknown as string,
        long: 'v'.repeat(501),
        fine: 'ok',
      }),
    );
    const fields = errs.map((e) => e.field);
    expect(fields).toEqual([
      'metadata[""]',
      `metadata.${'k'.repeat(41)}`,
      'metadata["a[b"]',
      'metadata["c]"]',
      'metadata.num',
      'metadata.nul',
      'metadata.long',
    ]);
    expect(errs[0].message).toMatch(/1 to 40 characters \(UTF-16 code units; got 0\)/);
    expect(errs[1].message).toMatch(/got 41/);
    expect(errs[2].message).toBe('key must not contain [ or ]');
    expect(errs[4].message).toBe('value must be a string (got number)');
    expect(errs[5].message).toBe('value must be a string (got null)');
    expect(errs[6].message).toMatch(/at most 500 characters \(UTF-16 code units; got 501\)/);
  });

  it('counts UTF-16 code units as the partner (Zod) does: an emoji is two', () => {
    expect(() => validateMetadata({ ['😀'.repeat(20)]: '😀'.repeat(250) })).not.toThrow();
    // 251 emoji = 502 units: the partner refuses it, so it is refused here (code points counted 251).
    const value = fieldErrorsOf(() => validateMetadata({ k: '😀'.repeat(251) }));
    expect(value).toEqual([{ field: 'metadata.k', message: expect.stringContaining('got 502') }]);
    const key = fieldErrorsOf(() => validateMetadata({ ['😀'.repeat(21)]: 'v' }));
    expect(key[0].message).toMatch(/got 42/);
    expect(() => validateMetadata({ k: 'é'.repeat(500) })).not.toThrow(); // one unit each
  });

  it('uses the given prefix and builds a readable message', () => {
    const err = (() => {
      try {
        validateMetadata({ 'x]': 'a' }, 'recipient.metadata');
      } catch (e) {
        return e as PartnerLocalValidationError;
      }
      return undefined;
    })();
    expect(err?.code).toBe('local_validation');
    expect(err?.fieldErrors[0].field).toBe('recipient.metadata["x]"]');
    expect(err?.message).toContain('recipient.metadata["x]"]: key must not contain [ or ]');
  });

  it('accepts plain objects from any realm and null-prototype maps; refuses class instances', () => {
    const foreign: unknown = runInNewContext('({ color: "blue" })');
    expect(() => validateMetadata(foreign)).not.toThrow();
    const bare = Object.assign(Object.create(null) as Record<string, string>, { a: 'b' });
    expect(() => validateMetadata(bare)).not.toThrow();
    class Meta {
      a = 'b';
    }
    expect(fieldErrorsOf(() => validateMetadata(new Meta()))[0].field).toBe('metadata');
  });

  it('collectMetadataErrors returns [] for valid input without throwing', () => {
    expect(collectMetadataErrors({ a: 'b' })).toEqual([]);
    expect(collectMetadataErrors({ a: 1 }, 'm')).toEqual([
      { field: 'm.a', message: 'value must be a string (got number)' },
    ]);
  });
});

describe('validateMetadataFilter (spec 4.4)', () => {
  it('accepts string values with valid keys, more than 50 is not a filter rule', () => {
    const many: Record<string, string> = {};
    for (let i = 0; i < 60; i++) many[`k${i}`] = `v${i}`;
    expect(() => validateMetadataFilter(many)).not.toThrow();
    expect(() => validateMetadataFilter({ color: 'blue', '': 'x' })).toThrow(PartnerLocalValidationError);
  });

  it('refuses bad keys and non-string values, all at once', () => {
    const errs = fieldErrorsOf(() => validateMetadataFilter({ 'a[0]': 'x', ok: true as unknown as string }));
    expect(errs.map((e) => e.field)).toEqual(['metadata["a[0]"]', 'metadata.ok']);
  });
});

describe('metadataFilterToQueryParams', () => {
  it('serialises to metadata[key]=value pairs that URLSearchParams encodes', () => {
    const pairs = metadataFilterToQueryParams({ color: 'blue', 'order id': 'a&b' });
    expect(pairs).toEqual([
      ['metadata[color]', 'blue'],
      ['metadata[order id]', 'a&b'],
    ]);
    expect(new URLSearchParams(pairs).toString()).toBe(
      'metadata%5Bcolor%5D=blue&metadata%5Border+id%5D=a%26b',
    );
  });

  it('returns nothing for no filter and validates before serialising', () => {
    expect(metadataFilterToQueryParams(undefined)).toEqual([]);
    expect(() => metadataFilterToQueryParams({ 'x[': 'y' })).toThrow(PartnerLocalValidationError);
  });
});
