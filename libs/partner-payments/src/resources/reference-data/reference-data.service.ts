import { PartnerHttpClient } from '../../http/partner-http.client';
import type { Clock } from '../../http/rate-limiter.policy';
import { systemClock } from '../../http/rate-limiter.policy';
import { PartnerLocalValidationError } from '../../errors/partner.errors';
import type { PartnerCallOptions } from '../shared/common.model';
import type {
  PartnerBank,
  PartnerBankList,
  PartnerCountry,
  PartnerCountryList,
  PartnerCountrySubdivision,
} from './reference-data.model';
import { asRecord, send } from '../shared/resource.util';

interface CacheEntry<T> {
  expiresAt: number;
  value: Promise<T>;
}

const str = (v: unknown): string => (typeof v === 'string' ? v : '');

function toCountry(row: unknown): PartnerCountry {
  const r = asRecord(row);
  const subdivisions = (Array.isArray(r.subdivisions) ? r.subdivisions : []).map(
    (s): PartnerCountrySubdivision => ({ code: str(asRecord(s).code), name: str(asRecord(s).name) }),
  );
  // evidence §11 N37: a string or null; absent (older answers) reads as null.
  const postal = typeof r.postal_code_format === 'string' ? r.postal_code_format : null;
  return {
    ...r,
    alpha3: str(r.alpha3),
    name: str(r.name),
    postal_code_format: postal,
    subdivisions,
  } as PartnerCountry;
}

function toBank(row: unknown): PartnerBank {
  const r = asRecord(row);
  return { ...r, code: str(r.code), name: str(r.name) } as PartnerBank;
}

/**
 * Countries and banks (evidence §8), for building recipient and user forms. They rarely change, so
 * answers are kept in memory for `referenceDataCacheTtlMs` (default 24 h; 0 turns the cache off):
 * concurrent callers share one request, a failed request is not kept, and every caller gets its own
 * copy (mutating one does not change the next answer). Per-call options apply to the request that
 * fills the cache (a cached answer calls no `onMeta`); `clearCache()` forces a fresh read.
 */
export class PartnerReferenceDataService {
  private readonly cache = new Map<string, CacheEntry<unknown>>();

  constructor(
    private readonly http: PartnerHttpClient,
    private readonly ttlMs: number,
    private readonly clock: Pick<Clock, 'now'> = systemClock,
  ) {}

  /**
   * GET /v1/countries → `{ count, data: [{ alpha3, name, postal_code_format, subdivisions }] }`: the
   * whole list at once (the partner ignores `limit` and `offset` here, evidence §11 N37).
   */
  async countries(options?: PartnerCallOptions): Promise<PartnerCountryList> {
    return this.cached('countries', async () => {
      const res = await send<unknown>(this.http, { method: 'GET', path: '/v1/countries' }, options);
      const b = asRecord(res.data);
      const data = (Array.isArray(b.data) ? b.data : Array.isArray(res.data) ? res.data : []).map(toCountry);
      return { count: typeof b.count === 'number' ? b.count : data.length, data };
    });
  }

  /**
   * GET /v1/banks?country_code=XX → `{ banks: [{ code, name }], total, country_code }`. The code is
   * checked before I/O (uppercase alpha-2). The partner lists banks for CO only today and answers
   * any other country 400 "Only CO (Colombia) is supported at this time" (a PartnerValidationError);
   * this client does not hard-code that, so a country the partner adds works without an upgrade.
   */
  async banks(countryCode: string, options?: PartnerCallOptions): Promise<PartnerBankList> {
    if (typeof countryCode !== 'string' || !/^[A-Z]{2}$/.test(countryCode)) {
      throw new PartnerLocalValidationError([
        { field: 'countryCode', message: 'must be an uppercase ISO 3166-1 alpha-2 code, e.g. CO' },
      ]);
    }
    return this.cached(`banks:${countryCode}`, async () => {
      const res = await send<unknown>(
        this.http,
        { method: 'GET', path: '/v1/banks', query: { country_code: countryCode } },
        options,
      );
      const b = asRecord(res.data);
      const banks = (Array.isArray(b.banks) ? b.banks : []).map(toBank);
      return {
        banks,
        total: typeof b.total === 'number' ? b.total : banks.length,
        country_code: str(b.country_code) || countryCode,
      };
    });
  }

  /** Forgets every cached answer: the next call reads the partner again. */
  clearCache(): void {
    this.cache.clear();
  }

  private async cached<T>(key: string, load: () => Promise<T>): Promise<T> {
    const now = this.clock.now();
    const hit = this.cache.get(key) as CacheEntry<T> | undefined;
    if (hit && hit.expiresAt > now) return structuredClone(await hit.value);
    const value = load();
    if (this.ttlMs > 0) {
      const entry: CacheEntry<T> = { expiresAt: now + this.ttlMs, value };
      this.cache.set(key, entry);
      // A failure is not kept: the next call tries again.
      value.catch(() => {
        if (this.cache.get(key) === entry) this.cache.delete(key);
      });
    }
    return structuredClone(await value);
  }
}
