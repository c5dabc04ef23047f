import type { PartnerHttpClient } from '../../http/partner-http.client';
import type { PartnerRequest, PartnerResponse } from '../../http/http.types';
import type { PartnerCallOptions, PartnerPage } from './common.model';
import { PartnerLocalValidationError } from '../../errors/partner.errors';
import { PartnerPagingError } from '../../errors/partner-api.errors';

/**
 * Sends a request with the per-call options merged in; hands the metadata to onMeta. Without options
 * (most calls) the request goes as is: no copy and no extra async hop on the hot path.
 */
export function send<T>(
  http: PartnerHttpClient,
  req: PartnerRequest,
  options?: PartnerCallOptions,
): Promise<PartnerResponse<T>> {
  return options === undefined ? http.request<T>(req) : sendWithOptions<T>(http, req, options);
}

async function sendWithOptions<T>(
  http: PartnerHttpClient,
  req: PartnerRequest,
  options: PartnerCallOptions,
): Promise<PartnerResponse<T>> {
  const res = await http.request<T>({
    ...req,
    idempotencyKey: options.idempotencyKey ?? req.idempotencyKey,
    apiVersion: options.apiVersion ?? req.apiVersion,
    timeoutMs: options.timeoutMs ?? req.timeoutMs,
    maxRetries: options.maxRetries ?? req.maxRetries,
    headers: { ...req.headers, ...options.headers },
  });
  options.onMeta?.(res.meta);
  return res;
}

export function asRecord(value: unknown): Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : {};
}

/** The object under the first of `keys` that holds one (`{ data: {...} }`), else the body itself. */
export function unwrap(body: unknown, ...keys: string[]): Record<string, unknown> {
  const b = asRecord(body);
  for (const k of keys)
    if (typeof b[k] === 'object' && b[k] !== null && !Array.isArray(b[k])) return asRecord(b[k]);
  return b;
}

export function requireId(value: unknown, field: string): string {
  if (typeof value !== 'string' || value.trim() === '') {
    throw new PartnerLocalValidationError([{ field, message: 'is required (a non-empty string)' }]);
  }
  // A dot segment would turn GET /v1/payouts/.. into GET /v1: a different call, not this one.
  if (value === '.' || value === '..') {
    throw new PartnerLocalValidationError([{ field, message: 'must not be "." or ".."' }]);
  }
  return value;
}

/** limit at most 100: above it the server answers a bare 500 (provider-facts "Users"). */
export function checkPageParams(limit: unknown, offset: unknown, max = 100): void {
  const errors = [];
  if (
    limit !== undefined &&
    (typeof limit !== 'number' || !Number.isInteger(limit) || limit < 1 || limit > max)
  ) {
    errors.push({ field: 'limit', message: `must be an integer from 1 to ${max}` });
  }
  if (offset !== undefined && (typeof offset !== 'number' || !Number.isInteger(offset) || offset < 0)) {
    errors.push({ field: 'offset', message: 'must be an integer >= 0' });
  }
  if (errors.length > 0) throw new PartnerLocalValidationError(errors);
}

/** Reads `{ data, pagination: { total, limit, offset, has_more } }` and tolerant variants. */
export function toOffsetPage<T>(body: unknown, listKeys: string[], map: (v: unknown) => T): PartnerPage<T> {
  const b = asRecord(body);
  const list = Array.isArray(body) ? body : (listKeys.map((k) => b[k]).find(Array.isArray) ?? []);
  const p = asRecord(b.pagination);
  const num = (v: unknown): number | null => (typeof v === 'number' && Number.isFinite(v) ? v : null);
  const total = num(p.total) ?? num(b.total);
  const limit = num(p.limit) ?? num(b.limit);
  const offset = num(p.offset) ?? num(b.offset);
  const data = (list as unknown[]).map(map);
  let hasMore: boolean;
  if (typeof p.has_more === 'boolean') hasMore = p.has_more;
  else if (typeof b.has_more === 'boolean') hasMore = b.has_more;
  else if (total !== null) hasMore = (offset ?? 0) + data.length < total;
  else hasMore = limit !== null && data.length >= limit;
  return { data, total, limit, offset, hasMore };
}

/**
 * Walks an offset-paged list; stops on hasMore false or an empty page. A page whose own
 * `pagination.offset` is not the offset asked for throws PartnerPagingError: a partner that did not
 * read `offset` would answer the first page again and again (with has_more true), so walking on
 * would repeat rows or never end. `list` names the list in that error.
 */
export async function* iterateOffsetPages<T>(
  fetchPage: (offset: number, limit: number) => Promise<PartnerPage<T>>,
  limit = 100,
  list = 'the list',
): AsyncGenerator<T, void, undefined> {
  let offset = 0;
  for (;;) {
    const page = await fetchPage(offset, limit);
    if (page.offset !== null && page.offset !== offset)
      throw new PartnerPagingError(list, offset, page.offset);
    for (const item of page.data) yield item;
    if (!page.hasMore || page.data.length === 0) return;
    offset += page.data.length;
  }
}
