/**
 * The partner's rate budget kept in the app's database: two connections to one database
 * ("replicas") spend one bucket, on a SQLite file and on PostgreSQL.
 */
import { loadAppConfig } from '../../../apps/reference-app/src/config/app.config';
import { DatabaseRateBudget } from '../../../apps/reference-app/src/rate-budget/database-rate-budget.store';
import { partnerRateLimitOptions } from '../../../apps/reference-app/src/rate-budget/partner-rate-limit.options';
import type { PartnerConnection } from '../../../apps/reference-app/src/sandbox/partner-connection.providers';
import { DATABASE_KINDS, openTestDatabase, type TestDatabase } from '../../setup/test-database.fixture';

jest.setTimeout(30_000);

describe.each(DATABASE_KINDS)('DatabaseRateBudget on %s', (kind) => {
  let db: TestDatabase;
  beforeAll(async () => {
    db = await openTestDatabase(kind, 'rate-budget');
  });
  afterAll(() => db?.close());

  it('two replicas share one bucket: the burst is spent once, then callers queue at the rate', async () => {
    const other = await db.openAnother();
    const key = DatabaseRateBudget.accountKeyFor('http://partner.test', 'the-api-key');
    const a = new DatabaseRateBudget(db.uow, key);
    const b = new DatabaseRateBudget(other.uow, key);
    // 1/s: the few ms the calls take refill almost nothing, so the waits are about 1, 2 and 3 s.
    const limit = { requestsPerSecond: 1, burst: 4 };
    const waits: number[] = [];
    for (let i = 0; i < 4; i++) waits.push(await (i % 2 ? b : a).reserve(limit));
    expect(waits).toEqual([0, 0, 0, 0]);
    // Both replicas now wait their turn, in order, a second apart.
    const next = [await a.reserve(limit), await b.reserve(limit), await a.reserve(limit)];
    expect(next[0]).toBeGreaterThan(500);
    expect(next[1]).toBeGreaterThan(next[0] + 500);
    expect(next[2]).toBeGreaterThan(next[1] + 500);
    // Another account has its own bucket; the key never contains the api key.
    const otherKey = DatabaseRateBudget.accountKeyFor('http://partner.test', 'another-key');
    expect(await new DatabaseRateBudget(db.uow, otherKey).reserve(limit)).toBe(0);
    expect(key).not.toContain('the-api-key');
  });

  it('replicas whose PARTNER_BASE_URL differs only in spelling share one bucket; environments and keys do not', async () => {
    // Through the options the app builds (not accountKeyFor alone): the environment once went into
    // the URL and kept a trailing slash from being normalised away.
    const config = loadAppConfig({ PARTNER_BASE_URL: undefined }); // PARTNER_RATE_BUDGET: database
    const keyOf = (conn: Partial<PartnerConnection>): string => {
      const options = partnerRateLimitOptions(
        config,
        {
          baseUrl: 'https://partner.example',
          environment: 'production',
          apiKey: 'the-key',
          ...conn,
        } as PartnerConnection,
        db.uow,
      );
      if (options === false || !(options.budget instanceof DatabaseRateBudget))
        throw new Error('no database budget');
      return options.budget.accountKey;
    };
    const key = keyOf({});
    for (const baseUrl of [
      'https://partner.example/',
      'https://PARTNER.example',
      'https://partner.example:443//',
    ])
      expect(keyOf({ baseUrl })).toBe(key);
    expect(keyOf({ environment: 'sandbox' })).not.toBe(key);
    expect(keyOf({ apiKey: 'another-key' })).not.toBe(key);
    expect(keyOf({ baseUrl: 'https://partner.example/sandbox' })).not.toBe(key);
  });

  it('refills with time, never above the burst', async () => {
    const key = DatabaseRateBudget.accountKeyFor('http://partner.test', 'refill');
    const budget = new DatabaseRateBudget(db.uow, key);
    const limit = { requestsPerSecond: 5, burst: 2 };
    expect([await budget.reserve(limit), await budget.reserve(limit)]).toEqual([0, 0]);
    expect(await budget.reserve(limit)).toBeGreaterThan(0);
    await new Promise((r) => setTimeout(r, 1000)); // 5 tokens' worth: the reservation is paid, the rest capped at 2
    expect([await budget.reserve(limit), await budget.reserve(limit)]).toEqual([0, 0]);
    expect(await budget.reserve(limit)).toBeGreaterThan(0);
  });

  it('refills by exactly the milliseconds it records as elapsed, never a fraction twice', async () => {
    const key = DatabaseRateBudget.accountKeyFor('http://partner.test', 'exact');
    const budget = new DatabaseRateBudget(db.uow, key);
    // 1,000/s: a token a millisecond, so a fraction of a millisecond counted twice shows as up to
    // a whole token; the burst is out of reach, so nothing is capped.
    const limit = { requestsPerSecond: 1000, burst: 1_000_000 };
    await budget.reserve(limit);
    const p = kind === 'postgres' ? '$1' : '?';
    const row = async () => {
      const [r] = await db.dataSource.query(
        `SELECT tokens, refilled_ms FROM partner_rate_budget WHERE account_key = ${p}`,
        [key],
      );
      return { tokens: Number(r.tokens), refilledMs: Number(r.refilled_ms) };
    };
    await db.dataSource.query(`UPDATE partner_rate_budget SET tokens = 0 WHERE account_key = ${p}`, [key]);
    let before = await row();
    for (let i = 0; i < 30; i++) {
      await new Promise((r) => setTimeout(r, 1 + (i % 3)));
      await budget.reserve(limit);
      const after = await row();
      const refilled = ((after.refilledMs - before.refilledMs) * limit.requestsPerSecond) / 1000;
      expect(after.tokens).toBeCloseTo(before.tokens + refilled - 1, 6);
      before = after;
    }
  });

  it('is one bucket for one account however its base URL is spelled', () => {
    const key = DatabaseRateBudget.accountKeyFor('https://partner.example/sandbox', 'k');
    for (const spelling of [
      'https://Partner.Example/sandbox/',
      'https://partner.example:443/sandbox',
      'HTTPS://partner.example/sandbox//',
    ])
      expect(DatabaseRateBudget.accountKeyFor(spelling, 'k')).toBe(key);
    expect(DatabaseRateBudget.accountKeyFor('https://partner.example/other', 'k')).not.toBe(key);
  });
});
