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
