import { buildPartnerHeaders, resolveVersionHeader, type VersionHeaderInput } from './headers.util';
import {
  isDeduplicatedRoute,
  newIdempotencyKey,
  replayIsDeduplicated,
  requiresIdempotencyKey,
  resolveIdempotencyKey,
} from './idempotency.policy';

describe('buildPartnerHeaders', () => {
  it('sends x-api-key, bearer, version and key on an API call', () => {
    const h = buildPartnerHeaders({
      apiKey: 'k',
      accessToken: 't',
      apiVersion: '2026-04-14',
      idempotencyKey: 'i',
      contentType: 'application/json',
    });
    expect(h).toEqual({
      Accept: 'application/json',
      'Content-Type': 'application/json',
      'x-api-key': 'k',
      Authorization: 'Bearer t',
      'X-Api-Version': '2026-04-14',
      'Idempotency-Key': 'i',
    });
  });
  it('sends no Authorization, version or key for POST /auth (spec 4.1)', () => {
    const h = buildPartnerHeaders({ apiKey: 'k', accessToken: null, apiVersion: null, idempotencyKey: null });
    expect(Object.keys(h).sort()).toEqual(['Accept', 'x-api-key']);
  });
  it('never lets extra headers override the reserved ones, whatever their case', () => {
    const h = buildPartnerHeaders({
      apiKey: 'k',
      accessToken: 't',
      apiVersion: null,
      idempotencyKey: null,
      extra: { 'X-API-KEY': 'evil', authorization: 'Bearer evil', 'idempotency-key': 'x', 'X-Trace': '1' },
    });
    expect(h['x-api-key']).toBe('k');
    expect(h.Authorization).toBe('Bearer t');
    expect(Object.keys(h).filter((k) => k.toLowerCase() === 'idempotency-key')).toEqual([]);
    expect(h['X-Trace']).toBe('1');
  });
});

describe('resolveVersionHeader (spec 9.2)', () => {
  const base: VersionHeaderInput = {
    area: 'default',
    apiVersion: '2026-04-14',
    rfiVersion: '2026-06-01',
    sendVersionHeader: 'until-pinned',
    pinnedVersion: null,
  };
  it('sends the configured version until the account is pinned to it', () => {
    expect(resolveVersionHeader(base)).toBe('2026-04-14');
    expect(resolveVersionHeader({ ...base, pinnedVersion: '2026-04-14' })).toBeNull();
    expect(resolveVersionHeader({ ...base, pinnedVersion: '2025-01-01' })).toBe('2026-04-14');
  });
  it("'always' sends it even when pinned", () => {
    expect(resolveVersionHeader({ ...base, sendVersionHeader: 'always', pinnedVersion: '2026-04-14' })).toBe(
      '2026-04-14',
    );
  });
  it('RFI calls always send 2026-06-01 (provider-facts)', () => {
    expect(resolveVersionHeader({ ...base, area: 'rfis', pinnedVersion: '2026-04-14' })).toBe('2026-06-01');
  });
  it('a required header is sent when pinned (spec 4.6)', () => {
    expect(resolveVersionHeader({ ...base, versionHeaderRequired: true, pinnedVersion: '2026-04-14' })).toBe(
      '2026-04-14',
    );
  });
  it('a per-call version wins', () => {
    expect(resolveVersionHeader({ ...base, area: 'rfis', perCallVersion: '2027-01-01' })).toBe('2027-01-01');
  });
});

describe('idempotency policy', () => {
  it.each([
    ['POST', '/v1/users'],
    ['POST', '/v1/recipients'],
    ['POST', '/v1/virtual-accounts'],
    ['POST', '/v1/virtual-accounts/va-1/payout'],
    ['POST', '/v1/users/u-1/verifications'],
    ['POST', '/v1/virtual-accounts/va-1/liquidation-address'],
    ['post', '/v1/users/'],
  ])('%s %s takes a key', (m, p) => expect(requiresIdempotencyKey(m, p)).toBe(true));

  it.each([
    ['GET', '/v1/users'],
    ['PUT', '/v1/users/u-1'],
    ['POST', '/auth'],
    ['POST', '/v1/users/u-1/liveness-link'],
    ['PATCH', '/v1/rfis/r/items'],
    ['POST', '/v1/virtual-accounts/a/b/payout'],
    ['GET', '/v1/virtual-accounts/va-1/liquidation-address'],
  ])('%s %s takes none', (m, p) => expect(requiresIdempotencyKey(m, p)).toBe(false));

  it('makes UUID v4 keys, fresh each time', () => {
    const a = newIdempotencyKey();
    expect(a).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(newIdempotencyKey()).not.toBe(a);
  });
  it("the caller's key wins, even on routes that would not get one", () => {
    expect(resolveIdempotencyKey('POST', '/v1/users', 'mine')).toBe('mine');
    expect(resolveIdempotencyKey('PATCH', '/v1/rfis/r/items', 'mine')).toBe('mine');
    expect(resolveIdempotencyKey('GET', '/v1/users')).toBeNull();
  });
  it('a key makes a replay safe only on the routes that de-duplicate on it (spec 4.7)', () => {
    expect(replayIsDeduplicated('POST', '/v1/virtual-accounts/va-1/payout', 'k')).toBe(true);
    expect(replayIsDeduplicated('POST', '/v1/recipients', 'k')).toBe(true);
    // keyed in the docs (evidence §5 [D for-ai-agents]), but no replay was ever observed
    expect(requiresIdempotencyKey('POST', '/v1/virtual-accounts/va-1/liquidation-address')).toBe(true);
    expect(replayIsDeduplicated('POST', '/v1/virtual-accounts/va-1/liquidation-address', 'k')).toBe(false);
    // keyed in the docs, but a reused key made a second verification (evidence §3 [T3r DRIFT-16])
    expect(requiresIdempotencyKey('POST', '/v1/users/u-1/verifications')).toBe(true);
    expect(isDeduplicatedRoute('POST', '/v1/users/u-1/verifications')).toBe(false);
    expect(replayIsDeduplicated('POST', '/v1/users/u-1/verifications', 'k')).toBe(false);
    expect(replayIsDeduplicated('POST', '/v1/users', null)).toBe(false);
    // sent when the caller passes one, but these routes add or overwrite on every call
    expect(replayIsDeduplicated('POST', '/v1/rfis/r/items/i/documents', 'k')).toBe(false);
    expect(replayIsDeduplicated('PATCH', '/v1/rfis/r/items', 'k')).toBe(false);
    expect(replayIsDeduplicated('PUT', '/v1/users/u-1', 'k')).toBe(false);
    // keyed, but the partner made a second verification for a reused key (DRIFT-16)
    expect(requiresIdempotencyKey('POST', '/v1/users/u-1/verifications')).toBe(true);
    expect(replayIsDeduplicated('POST', '/v1/users/u-1/verifications', 'k')).toBe(false);
    expect(replayIsDeduplicated('POST', '/v1/users/u-1/verifications/', 'k')).toBe(false);
  });
});
