import { PartnerLocalValidationError } from '@partner-payments/nestjs';
import { PartnerValidationError } from '@partner-payments/nestjs/errors';
import { partnerPostalCodePattern } from '@partner-payments/nestjs/models';
import { startClientWorld, stopClientWorld, type ClientWorld } from './client.fixture';

describe('client: reference data with its in-memory cache (evidence §8; real socket)', () => {
  let world: ClientWorld | undefined;
  afterEach(async () => {
    await stopClientWorld(world);
    world = undefined;
  });
  const start = async (referenceDataCacheTtlMs?: number) => {
    world = await startClientWorld({}, { rateLimit: false, referenceDataCacheTtlMs });
    return world.graph.client.referenceData;
  };
  const hits = async (route: string) =>
    (await world!.sandbox.control.requestLog()).filter((e) => e.route === route).length;

  it('countries(): the partner’s list, read once and served from memory; callers get their own copies', async () => {
    const ref = await start();
    const [a, b] = await Promise.all([ref.countries(), ref.countries()]);
    expect(a.count).toBe(250);
    expect(a.data.find((c) => c.alpha3 === 'COL')?.subdivisions).toContainEqual({
      code: 'ANT',
      name: 'Antioquia',
    });
    expect(b).toEqual(a);
    // evidence §11 N37: each row's postal code pattern, a string or null, usable as a RegExp.
    const mexico = a.data.find((c) => c.alpha3 === 'MEX');
    expect(partnerPostalCodePattern(mexico!)?.test('06600')).toBe(true);
    expect(a.data.find((c) => c.alpha3 === 'HKG')?.postal_code_format).toBeNull();
    a.data.length = 0;
    const c = await ref.countries();
    expect(c.data).toHaveLength(250);
    expect(await hits('GET /v1/countries')).toBe(1);
    ref.clearCache();
    await ref.countries();
    expect(await hits('GET /v1/countries')).toBe(2);
  });

  it('the TTL is configurable: entries expire after it, and 0 turns the cache off', async () => {
    // A TTL far above the gap between two back-to-back calls, even on a loaded CI machine (it was
    // 40 ms and failed there: the second call came after the entry expired).
    const ttlMs = 1500;
    const ref = await start(ttlMs);
    await ref.countries();
    await ref.countries();
    expect(await hits('GET /v1/countries')).toBe(1);
    await new Promise((r) => setTimeout(r, ttlMs + 100));
    await ref.countries();
    expect(await hits('GET /v1/countries')).toBe(2);
    await stopClientWorld(world);
    const uncached = await start(0);
    await uncached.banks('CO');
    await uncached.banks('CO');
    expect(await hits('GET /v1/banks')).toBe(2);
  });

  it('banks(): CO answers { banks, total, country_code }; another country is the partner’s 400, never cached', async () => {
    const ref = await start();
    const co = await ref.banks('CO');
    expect(co).toMatchObject({ country_code: 'CO', total: co.banks.length });
    expect(co.banks).toContainEqual({ code: '1007', name: 'Bancolombia' });
    for (let i = 0; i < 2; i++) {
      const err = await ref.banks('MX').catch((e: unknown) => e);
      expect(err).toBeInstanceOf(PartnerValidationError);
      expect((err as PartnerValidationError).fieldErrors).toEqual([
        { field: 'country_code', message: 'Only CO (Colombia) is supported at this time' },
      ]);
    }
    expect(await hits('GET /v1/banks')).toBe(3);
  });

  it('banks(): a code that is not uppercase alpha-2 is refused before any I/O', async () => {
    const ref = await start();
    for (const code of ['co', 'COL', '', 'C0']) {
      await expect(ref.banks(code)).rejects.toBeInstanceOf(PartnerLocalValidationError);
    }
    expect(await hits('GET /v1/banks')).toBe(0);
  });
});
