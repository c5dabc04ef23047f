import {
  buildQueryString,
  buildUrl,
  encodePathSegment,
  joinQueryStrings,
  joinUrl,
  splitPathQuery,
} from './url.util';

describe('joinUrl (provider-facts: the sandbox is a path prefix)', () => {
  it('keeps the /sandbox prefix that new URL() would drop', () => {
    expect(new URL('/v1/users', 'https://api.example.com/sandbox').href).toBe(
      'https://api.example.com/v1/users',
    );
    expect(joinUrl('https://api.example.com/sandbox', '/v1/users')).toBe(
      'https://api.example.com/sandbox/v1/users',
    );
  });
  it('handles trailing and leading slashes once', () => {
    expect(joinUrl('https://a.example/p/sandbox/', '/v1/x')).toBe('https://a.example/p/sandbox/v1/x');
    expect(joinUrl('https://a.example/p/sandbox', 'v1/x')).toBe('https://a.example/p/sandbox/v1/x');
    expect(joinUrl('https://a.example//', '//auth')).toBe('https://a.example/auth');
  });
});

describe('buildQueryString', () => {
  it('keeps metadata[key] brackets readable and encodes values', () => {
    expect(buildQueryString({ user_id: 'u1', 'metadata[team]': 'a&b c' })).toBe(
      '?user_id=u1&metadata[team]=a%26b%20c',
    );
  });
  it('skips undefined/null and repeats arrays', () => {
    expect(buildQueryString({ a: undefined, b: null, c: [1, 2], d: false })).toBe('?c=1&c=2&d=false');
    expect(buildQueryString({})).toBe('');
    expect(buildQueryString(undefined)).toBe('');
  });
  it('buildUrl joins and appends', () => {
    expect(buildUrl('http://h/sandbox', '/v1/payouts', { limit: 5 })).toBe(
      'http://h/sandbox/v1/payouts?limit=5',
    );
  });
});

describe('encodePathSegment', () => {
  it('cannot add segments or a query', () => {
    expect(encodePathSegment('a/../b?x=1')).toBe('a%2F..%2Fb%3Fx%3D1');
  });
  it('refuses empty ids', () => {
    expect(() => encodePathSegment('')).toThrow(TypeError);
  });
  it('refuses dot segments, which URL parsers and servers would resolve', () => {
    expect(() => encodePathSegment('..')).toThrow(TypeError);
    expect(() => encodePathSegment('.')).toThrow(TypeError);
    expect(encodePathSegment('...')).toBe('...');
  });
});

describe('splitPathQuery / joinQueryStrings', () => {
  it('keeps a query written into the path', () => {
    expect(splitPathQuery('/v1/users?limit=5')).toEqual({ path: '/v1/users', queryString: '?limit=5' });
    expect(splitPathQuery('/v1/users?')).toEqual({ path: '/v1/users', queryString: '' });
    expect(splitPathQuery('/v1/users')).toEqual({ path: '/v1/users', queryString: '' });
  });
  it('joins two query strings', () => {
    expect(joinQueryStrings('?a=1', '?b=2')).toBe('?a=1&b=2');
    expect(joinQueryStrings('', '?b=2')).toBe('?b=2');
    expect(joinQueryStrings('?a=1', '')).toBe('?a=1');
  });
});
