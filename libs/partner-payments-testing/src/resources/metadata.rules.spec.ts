import { matchesMetadata, parseMetadataFilters, validateMetadata } from './metadata.rules';

describe('validateMetadata (spec 2.5 / 8)', () => {
  it('accepts undefined, {} and a valid map at the limits', () => {
    const fifty = Object.fromEntries(Array.from({ length: 50 }, (_, i) => [`k${i}`, 'v']));
    expect(validateMetadata(undefined)).toEqual([]);
    expect(validateMetadata({})).toEqual([]);
    expect(validateMetadata(fifty)).toEqual([]);
    expect(validateMetadata({ ['a'.repeat(40)]: 'x'.repeat(500) })).toEqual([]);
  });

  it('refuses more than 50 entries', () => {
    const many = Object.fromEntries(Array.from({ length: 51 }, (_, i) => [`k${i}`, 'v']));
    expect(validateMetadata(many)).toEqual([{ field: 'metadata', message: expect.stringContaining('50') }]);
  });

  it('refuses empty keys, keys over 40 characters and keys with [ or ], naming the field', () => {
    expect(validateMetadata({ '': 'v' })[0].field).toBe('metadata.');
    expect(validateMetadata({ ['a'.repeat(41)]: 'v' })[0].message).toContain('40');
    expect(validateMetadata({ 'a[b': 'v' })).toEqual([
      { field: 'metadata.a[b', message: expect.stringContaining('[ or ]') },
    ]);
    expect(validateMetadata({ 'a]': 'v' })).toHaveLength(1);
  });

  it('refuses values over 500 characters and non-string values', () => {
    expect(validateMetadata({ k: 'x'.repeat(501) })[0]).toEqual({
      field: 'metadata.k',
      message: expect.stringContaining('500'),
    });
    expect(validateMetadata({ k: 1 })[0].message).toContain('strings');
    expect(validateMetadata({ k: null })).toHaveLength(1);
  });

  it('refuses a non-object and uses the field name given', () => {
    expect(validateMetadata([], 'meta')).toEqual([{ field: 'meta', message: expect.any(String) }]);
    expect(validateMetadata('x')).toHaveLength(1);
  });
});

describe('metadata filters (spec 4.4)', () => {
  it('parses metadata[key]=value pairs and ignores other parameters', () => {
    const { filters, errors } = parseMetadataFilters(
      'user_id=1&metadata%5Bteam%5D=blue&metadata[tier]=gold%20plus',
    );
    expect(errors).toEqual([]);
    expect(filters).toEqual({ team: 'blue', tier: 'gold plus' });
  });

  it('refuses empty, too long and bracketed filter keys', () => {
    expect(parseMetadataFilters('metadata[]=x').errors).toHaveLength(1);
    expect(parseMetadataFilters(`metadata[${'k'.repeat(41)}]=x`).errors).toHaveLength(1);
    expect(parseMetadataFilters('metadata[a[b]=x').errors[0].message).toContain('[ or ]');
    expect(parseMetadataFilters('metadata[a=x').errors).toHaveLength(1);
  });

  it('requires every filter key to match', () => {
    expect(matchesMetadata({ a: '1', b: '2' }, { a: '1', b: '2' })).toBe(true);
    expect(matchesMetadata({ a: '1', b: '3' }, { a: '1', b: '2' })).toBe(false);
    expect(matchesMetadata({ a: '1' }, {})).toBe(true);
  });
});
