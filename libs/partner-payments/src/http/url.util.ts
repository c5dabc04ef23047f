import type { PartnerQuery } from './http.types';

/**
 * Joins a path onto the API base by string, keeping any path prefix of the base.
 * provider-facts: `new URL('/v1/x', base)` drops the '/sandbox' prefix; never use it for this.
 */
export function joinUrl(base: string, path: string): string {
  const b = base.replace(/\/+$/, '');
  const p = path.replace(/^\/+/, '');
  return p === '' ? b : `${b}/${p}`;
}

/** Encodes one path segment (an id) so it cannot add segments or a query. */
export function encodePathSegment(value: string): string {
  if (typeof value !== 'string' || value === '')
    throw new TypeError('path segment must be a non-empty string');
  // '.' and '..' survive encodeURIComponent and are dot segments to URL parsers and servers:
  // payouts.get('..') would otherwise become GET /v1 instead of a payout read.
  if (value === '.' || value === '..') throw new TypeError(`path segment must not be "${value}"`);
  return encodeURIComponent(value);
}

/**
 * Serialises a query with bracket keys kept readable (`metadata[team]=a`, spec 4.4).
 * undefined/null values are skipped; arrays repeat the key.
 */
export function buildQueryString(query: PartnerQuery | undefined): string {
  if (!query) return '';
  const parts: string[] = [];
  const enc = (s: string): string => encodeURIComponent(s).replace(/%5B/gi, '[').replace(/%5D/gi, ']');
  for (const [key, value] of Object.entries(query)) {
    if (value === undefined || value === null) continue;
    const values = Array.isArray(value) ? value : [value];
    for (const v of values) parts.push(`${enc(key)}=${encodeURIComponent(String(v))}`);
  }
  return parts.length === 0 ? '' : `?${parts.join('&')}`;
}

export function buildUrl(base: string, path: string, query?: PartnerQuery): string {
  return `${joinUrl(base, path)}${buildQueryString(query)}`;
}

/** Splits a path that carries its own query ('/v1/users?limit=5') into the path and that query ('' or '?...'). */
export function splitPathQuery(path: string): { path: string; queryString: string } {
  const at = path.indexOf('?');
  if (at < 0) return { path, queryString: '' };
  const q = path.slice(at + 1);
  return { path: path.slice(0, at), queryString: q === '' ? '' : `?${q}` };
}

/** Joins two query strings ('' or '?...') into one. */
export function joinQueryStrings(a: string, b: string): string {
  if (a === '') return b;
  if (b === '') return a;
  return `${a}&${b.slice(1)}`;
}
