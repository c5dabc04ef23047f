import { startWorld, stopWorld, type World } from './sandbox.fixture';

describe('sandbox: reference data (evidence §8)', () => {
  let world: World;
  beforeEach(async () => {
    world = await startWorld();
  });
  afterEach(() => stopWorld(world));

  it('GET /v1/countries → { count: 250, data: [{ alpha3, name, postal_code_format, subdivisions }] }, paging ignored (evidence §11 N37)', async () => {
    const answer = await world.api.call('GET', '/v1/countries');
    expect(answer.status).toBe(200);
    expect(answer.body.count).toBe(250);
    expect(answer.body.data).toHaveLength(250);
    for (const c of answer.body.data) {
      expect(Object.keys(c).sort()).toEqual(['alpha3', 'name', 'postal_code_format', 'subdivisions']);
      expect(c.alpha3).toMatch(/^[A-Z]{3}$/);
      expect(c.postal_code_format === null || /^\\A.*\\Z$/.test(c.postal_code_format)).toBe(true);
    }
    const format = (alpha3: string) =>
      answer.body.data.find((c: { alpha3: string }) => c.alpha3 === alpha3).postal_code_format;
    expect([format('MEX'), format('HKG')]).toEqual(['\\A\\d{5}\\Z', null]);
    for (const query of ['limit=100000', 'offset=99999', 'limit=1&offset=3']) {
      const paged = await world.api.call('GET', `/v1/countries?${query}`);
      expect([paged.status, paged.body.count, paged.body.data.length]).toEqual([200, 250, 250]);
    }
    const usa = answer.body.data.find((c: { alpha3: string }) => c.alpha3 === 'USA');
    expect(usa.subdivisions).toContainEqual({ code: 'NY', name: 'New York' });
    expect(answer.body.data.find((c: { alpha3: string }) => c.alpha3 === 'MEX').subdivisions).toHaveLength(
      32,
    );
  });

  it('GET /v1/banks?country_code=CO → { banks: [{ code, name }], total, country_code }', async () => {
    const answer = await world.api.call('GET', '/v1/banks?country_code=CO');
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({
      banks: expect.arrayContaining([{ code: '1007', name: 'Bancolombia' }]),
      total: answer.body.banks.length,
      country_code: 'CO',
    });
  });

  it('any other country_code (co, COL, MX, none) → 400 Zod shape "Only CO (Colombia) is supported at this time"', async () => {
    for (const query of ['?country_code=co', '?country_code=COL', '?country_code=MX', '']) {
      const answer = await world.api.call('GET', `/v1/banks${query}`);
      expect({ query, status: answer.status }).toEqual({ query, status: 400 });
      expect(answer.body).toEqual({
        error: 'Invalid request data',
        details: [
          { path: 'country_code', message: 'Only CO (Colombia) is supported at this time', code: 'custom' },
        ],
      });
    }
  });

  it('`country` instead of `country_code` → 400 Zod shape with details[0].path country_code (DRIFT-9)', async () => {
    const answer = await world.api.call('GET', '/v1/banks?country=CO');
    expect(answer.status).toBe(400);
    expect(answer.body.details[0]).toMatchObject({ path: 'country_code', message: 'Required' });
  });

  it('both need the bearer; /banks and /countries without /v1 are not routes', async () => {
    expect((await world.api.call('GET', '/v1/countries', { auth: false })).status).toBe(401);
    expect((await world.api.call('GET', '/v1/banks?country_code=CO', { auth: false })).status).toBe(401);
    expect((await world.api.call('GET', '/banks?country_code=CO')).status).toBe(403);
    expect((await world.api.call('GET', '/countries')).status).toBe(403);
  });
});
