import { startPartnerSandbox } from '@partner-payments/testing';
import { BASELINE_VERSION } from '../../libs/partner-payments-testing/src/server/versioning.util';
import { Api, useWorld } from './sandbox.fixture';
import { fundedSetup } from './funded-setup.fixture';

describe('sandbox: authentication (spec 4.1, 5)', () => {
  const world = useWorld({}, 'all');

  it('POST /auth answers { message, data: { access_token, expires_in: 3600, token_type } } on the sandbox base', async () => {
    const api = new Api(world.sandbox.sandboxBaseUrl, world.sandbox.credentials);
    const answer = await api.call('POST', '/auth', {
      body: { client_id: api.creds.clientId, password: api.creds.password },
      auth: false,
    });
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({
      message: expect.any(String),
      data: { access_token: expect.any(String), expires_in: 3600, token_type: 'Bearer' },
    });
    expect(world.sandbox.sandboxBaseUrl).toBe(`${world.sandbox.baseUrl}/sandbox`);
  });

  it('a rejected credential pair or a wrong api key answer 401 { code: unauthorized, message } (spec 5.7)', async () => {
    const before = await world.sandbox.control.counters();
    const api = new Api(world.sandbox.sandboxBaseUrl, world.sandbox.credentials);
    const bad = [
      await api.call('POST', '/auth', {
        body: { client_id: api.creds.clientId, password: 'wrong' },
        auth: false,
      }),
      await api.call('POST', '/auth', {
        body: { client_id: 'no-such-client', password: api.creds.password },
        auth: false,
      }),
      await api.call('POST', '/auth', {
        body: { client_id: api.creds.clientId, password: api.creds.password },
        auth: false,
        apiKey: 'nope',
      }),
      await api.call('POST', '/auth', { body: {}, auth: false }),
    ];
    for (const answer of bad) {
      expect(answer.status).toBe(401);
      expect(answer.body).toMatchObject({ code: 'unauthorized', message: expect.any(String) });
      expect(answer.headers.get('x-amzn-errortype')).toBeNull();
    }
    const after = await world.sandbox.control.counters();
    expect(after.authCalls - before.authCalls).toBe(4);
    expect(after.authFailures - before.authFailures).toBe(4);
  });

  it("POST /auth without x-api-key answers the gateway's 403, exactly as every other path does (evidence §1/§2 [T3r DRIFT-6, 49])", async () => {
    const before = await world.sandbox.control.counters();
    const api = new Api(world.sandbox.sandboxBaseUrl, world.sandbox.credentials);
    const elsewhere = await world.api.call('GET', '/v1/users', { apiKey: null });
    expect(elsewhere.status).toBe(403);
    const missing = [
      // the right client_id and password do not help without the key
      await api.call('POST', '/auth', {
        body: { client_id: api.creds.clientId, password: api.creds.password },
        auth: false,
        apiKey: null,
      }),
      // a bearer only (no x-api-key) is the same gateway 403
      await world.api.call('POST', '/auth', {
        body: { client_id: api.creds.clientId, password: api.creds.password },
        apiKey: null,
      }),
      await new Api(world.sandbox.sandboxBaseUrl, world.sandbox.credentials).call('POST', '/auth', {
        body: {},
        auth: false,
        apiKey: null,
      }),
    ];
    for (const answer of missing) {
      expect(answer.status).toBe(elsewhere.status);
      expect(answer.body).toEqual(elsewhere.body);
      expect(answer.body).toEqual({ message: 'Forbidden' });
      expect(answer.headers.get('x-amzn-errortype')).toBe(elsewhere.headers.get('x-amzn-errortype'));
      expect(answer.headers.get('x-amzn-errortype')).toBe('ForbiddenException');
    }
    const after = await world.sandbox.control.counters();
    expect(after.authCalls - before.authCalls).toBe(3);
    expect(after.authFailures - before.authFailures).toBe(3);
  });

  it('other calls need both x-api-key and a valid bearer of the same account (401 otherwise)', async () => {
    const api = world.api;
    expect((await api.call('GET', '/v1/users')).status).toBe(200);
    const noBearer = await api.call('GET', '/v1/users', { auth: false });
    expect(noBearer.status).toBe(401);
    expect(noBearer.body.code).toBe('unauthorized');
    // evidence §1/§2 [T3r DRIFT-6, 49]: no x-api-key at all is the gateway's 403 {message:"Forbidden"}.
    const noKey = await api.call('GET', '/v1/users', { apiKey: null });
    expect(noKey.status).toBe(403);
    expect(noKey.body).toEqual({ message: 'Forbidden' });
    expect(noKey.headers.get('x-amzn-errortype')).toBe('ForbiddenException');
    expect(
      (await api.call('GET', '/v1/users', { headers: { authorization: 'Bearer forged' }, auth: false }))
        .status,
    ).toBe(401);
    const other = await world.sandbox.control.createClient();
    const otherApi = await new Api(world.sandbox.sandboxBaseUrl, other).login();
    const crossed = await api.call('GET', '/v1/users', {
      headers: { authorization: `Bearer ${otherApi.token}` },
      auth: false,
    });
    expect(crossed.status).toBe(401);
  });

  it('expireTokensNow makes every token answer 401 until POST /auth again', async () => {
    const api = await new Api(world.sandbox.sandboxBaseUrl, world.sandbox.credentials).login();
    await world.sandbox.control.expireTokensNow();
    const expired = await api.call('GET', '/v1/users');
    expect(expired.status).toBe(401);
    expect(expired.body.message).toMatch(/expired/i);
    await api.login();
    expect((await api.call('GET', '/v1/users')).status).toBe(200);
    await world.api.login();
  });

  it('RFI routes answer 401 with code invalid_request (spec 7.2)', async () => {
    const answer = await world.api.call('GET', '/v1/rfis', { version: '2026-06-01', auth: false });
    expect(answer.status).toBe(401);
    expect(answer.body.code).toBe('invalid_request');
  });

  it('unmatched and malformed routes, key-management probes and PATCH users answer 403 invalid_request', async () => {
    const { userId } = await fundedSetup(world.api);
    const probes = [
      await world.api.call('POST', '/v1/api-keys/rotate', { body: {} }),
      await world.api.call('GET', '/v1/credentials'),
      await world.api.call('PATCH', `/v1/users/${userId}`, { body: { first_name: 'X' } }),
      await world.api.call('GET', '/v1/payouts/not-a-uuid'),
      await world.api.call('GET', '/nothing/here', { auth: false, apiKey: null }),
      // A known path's OPTIONS is the gateway's CORS preflight (gateway-stage.e2e-spec); an
      // unknown one has no route.
      await world.api.call('OPTIONS', '/nothing/here', { auth: false, apiKey: null }),
    ];
    for (const answer of probes) {
      expect(answer.status).toBe(403);
      expect(answer.body).toEqual({
        code: 'invalid_request',
        message: expect.stringContaining('could not be matched to a valid route'),
      });
    }
  });
});

describe('sandbox: token lifetime', () => {
  it('reports the configured expires_in (86400 shape) and expires short tokens for real', async () => {
    const long = await startPartnerSandbox({ tokenTtlSeconds: 86400 });
    // 3 s, not 1 s: the first call must land inside the lifetime even if a loaded machine stalls.
    const short = await startPartnerSandbox({ tokenTtlSeconds: 3 });
    try {
      const a = new Api(long.sandboxBaseUrl, long.credentials);
      const answer = await a.call('POST', '/auth', {
        body: { client_id: a.creds.clientId, password: a.creds.password },
        auth: false,
      });
      expect(answer.body.data.expires_in).toBe(86400);
      const s = await new Api(short.sandboxBaseUrl, short.credentials).login();
      expect((await s.call('GET', '/v1/users')).status).toBe(200);
      await new Promise((r) => setTimeout(r, 3100));
      expect((await s.call('GET', '/v1/users')).status).toBe(401);
    } finally {
      await long.close();
      await short.close();
    }
  });
});

describe('sandbox: versioning (spec 9, provider-facts)', () => {
  const world = useWorld();

  it('RFI routes exist only under 2026-06-01: header > pin > baseline', async () => {
    const unpinned = await world.api.call('GET', '/v1/rfis');
    expect(unpinned.status).toBe(403);
    expect(unpinned.body.code).toBe('invalid_request');
    const withHeader = await world.api.call('GET', '/v1/rfis', { version: '2026-06-01' });
    expect(withHeader.status).toBe(200);
    expect(withHeader.headers.get('x-api-version')).toBe('2026-06-01');
    expect((await world.api.call('GET', '/v1/users')).headers.get('x-api-version')).toBe(BASELINE_VERSION);
  });

  it('POST /v1/versioning/upgrade pins; the same target is harmless; an older one is refused', async () => {
    const first = await world.api.call('POST', '/v1/versioning/upgrade', {
      body: { target_version: '2026-04-14' },
    });
    expect(first.status).toBe(200);
    expect(first.body).toEqual({ previous_version: BASELINE_VERSION, current_version: '2026-04-14' });
    const again = await world.api.call('POST', '/v1/versioning/upgrade', {
      body: { target_version: '2026-04-14' },
    });
    expect(again.body).toEqual({ previous_version: '2026-04-14', current_version: '2026-04-14' });
    expect((await world.api.call('GET', '/v1/users')).headers.get('x-api-version')).toBe('2026-04-14');
    expect((await world.api.call('GET', '/v1/rfis')).status).toBe(403);

    const up = await world.api.call('POST', '/v1/versioning/upgrade', {
      body: { target_version: '2026-06-01' },
    });
    expect(up.body).toEqual({ previous_version: '2026-04-14', current_version: '2026-06-01' });
    expect((await world.api.call('GET', '/v1/rfis')).status).toBe(200);
    // The header wins over the pin.
    expect((await world.api.call('GET', '/v1/rfis', { version: '2026-04-14' })).status).toBe(403);

    const down = await world.api.call('POST', '/v1/versioning/upgrade', {
      body: { target_version: '2026-04-14' },
    });
    expect(down.status).toBe(400);
    expect(down.body.code).toBe('validation_error');
    expect((await world.api.call('GET', '/v1/rfis')).status).toBe(200);
  });

  it('refuses a missing or unknown target and a malformed X-Api-Version', async () => {
    expect((await world.api.call('POST', '/v1/versioning/upgrade', { body: {} })).status).toBe(400);
    expect(
      (await world.api.call('POST', '/v1/versioning/upgrade', { body: { target_version: '1999-01-01' } }))
        .status,
    ).toBe(400);
    const malformed = await world.api.call('GET', '/v1/users', { version: 'latest' });
    expect(malformed.status).toBe(400);
    expect(malformed.body.errors[0].field).toBe('X-Api-Version');
  });

  it('the liquidation-address call requires the header (spec 4.6) and answers a bare array', async () => {
    const { vaId } = await fundedSetup(world.api);
    const without = await world.api.call('GET', `/v1/virtual-accounts/${vaId}/liquidation-address`);
    expect(without.status).toBe(400);
    expect(without.body.code).toBe('validation_error');
    const empty = await world.api.call('GET', `/v1/virtual-accounts/${vaId}/liquidation-address`, {
      version: '2026-04-14',
    });
    expect(empty.status).toBe(200);
    expect(empty.body).toEqual([]);
    const { id } = await world.sandbox.control.addLiquidationAddress(vaId, { network: 'solana' });
    const one = await world.api.call('GET', `/v1/virtual-accounts/${vaId}/liquidation-address`, {
      version: '2026-04-14',
    });
    expect(one.body).toEqual([
      expect.objectContaining({
        id,
        virtual_account_id: vaId,
        network: 'solana',
        status: expect.any(String),
        address: expect.any(String),
        recipient: expect.any(Object),
        wallet: expect.any(Object),
      }),
    ]);
    const missing = await world.api.call(
      'GET',
      `/v1/virtual-accounts/${crypto.randomUUID()}/liquidation-address`,
      { version: '2026-04-14' },
    );
    expect(missing.status).toBe(404);
  });
});

// Only the versions the sandbox models select behaviour. An unknown well-formed version is
// "accepted silently with the same body" [T3r DRIFT-11] and RFIs "exist only on 2026-06-01" [T1
// REVISION-DOCS §2.3]: a typo'd or future date is echoed but resolves as if absent (pin, then the
// baseline). It used to count as 2026-06-01 whenever it sorted after it, opening the RFI routes.
describe('sandbox: unknown X-Api-Version values resolve as if absent', () => {
  const world = useWorld();
  const unknown = ['2026-06-02', '2099-01-01', '2026-05-31', '2025-01-01'];

  it('never opens the RFI routes on an account not pinned to 2026-06-01; the header sent is echoed', async () => {
    for (const version of unknown) {
      const rfis = await world.api.call('GET', '/v1/rfis?limit=1', { version });
      expect([version, rfis.status, rfis.body.code]).toEqual([version, 403, 'invalid_request']);
      const users = await world.api.call('GET', '/v1/users?limit=1', { version });
      expect([version, users.status, users.headers.get('x-api-version')]).toEqual([version, 200, version]);
    }
    await world.api.call('POST', '/v1/versioning/upgrade', { body: { target_version: '2026-04-14' } });
    for (const version of unknown)
      expect([version, (await world.api.call('GET', '/v1/rfis', { version })).status]).toEqual([
        version,
        403,
      ]);
  });

  it("answers the same body as without a header (virtual-account status in the default words, not 2026-04-14's)", async () => {
    const { vaId } = await fundedSetup(world.api);
    const plain = await world.api.call('GET', `/v1/virtual-accounts/${vaId}`);
    for (const version of unknown) {
      const answer = await world.api.call('GET', `/v1/virtual-accounts/${vaId}`, { version });
      expect([version, answer.body]).toEqual([version, plain.body]);
    }
    // A known version still selects its words: 2026-04-14 says `approved` for an active account;
    // the default, like 2026-06-01, the raw `active` ([D state-machines], evidence §5).
    const pinned = await world.api.call('GET', `/v1/virtual-accounts/${vaId}`, { version: '2026-04-14' });
    expect(pinned.body.status).toBe('approved');
    expect(plain.body.status).toBe('active');
  });

  it('on an account pinned to 2026-06-01 an unknown version keeps the pin (the RFI routes answer)', async () => {
    await world.api.call('POST', '/v1/versioning/upgrade', { body: { target_version: '2026-06-01' } });
    for (const version of unknown) {
      const rfis = await world.api.call('GET', '/v1/rfis', { version });
      expect([version, rfis.status, rfis.headers.get('x-api-version')]).toEqual([version, 200, version]);
    }
  });
});

describe('sandbox: option bases (spec 1: the sandbox base is {base_url}/sandbox)', () => {
  const login = (base: string, creds: { apiKey: string; clientId: string; password: string }) =>
    new Api(base, creds).call('POST', '/auth', {
      body: { client_id: creds.clientId, password: creds.password },
      auth: false,
    });

  it("'sandbox' (the default) serves only under /sandbox: on the root the credentials are another stage's (evidence §11 N1)", async () => {
    for (const sandbox of [await startPartnerSandbox(), await startPartnerSandbox({ bases: 'sandbox' })]) {
      try {
        expect((await login(sandbox.sandboxBaseUrl, sandbox.credentials)).status).toBe(200);
        const api = await new Api(sandbox.sandboxBaseUrl, sandbox.credentials).login();
        expect((await api.call('GET', '/v1/users')).status).toBe(200);
        const dropped = await login(sandbox.baseUrl, sandbox.credentials);
        expect([dropped.status, dropped.body]).toEqual([403, { message: 'Forbidden' }]);
        const rootApi = new Api(sandbox.baseUrl, sandbox.credentials);
        rootApi.token = api.token;
        const users = await rootApi.call('GET', '/v1/users');
        expect([users.status, users.body]).toEqual([401, { message: 'Unauthorized' }]);
        expect((await sandbox.control.counters()).created.users).toBe(0);
      } finally {
        await sandbox.close();
      }
    }
  });

  it("'root' serves only the production shape; 'both' (not the partner) serves both; other values are refused", async () => {
    const root = await startPartnerSandbox({ bases: 'root' });
    try {
      expect((await login(root.baseUrl, root.credentials)).status).toBe(200);
      expect((await login(root.sandboxBaseUrl, root.credentials)).status).toBe(403);
    } finally {
      await root.close();
    }
    const both = await startPartnerSandbox({ bases: 'both' });
    try {
      expect((await login(both.baseUrl, both.credentials)).status).toBe(200);
      expect((await login(both.sandboxBaseUrl, both.credentials)).status).toBe(200);
    } finally {
      await both.close();
    }
    await expect(startPartnerSandbox({ bases: 'prod' as 'root' })).rejects.toThrow('bases');
  });
});

describe('sandbox: option pinnedVersion', () => {
  it('refuses a pin that is not a known version (a string compare would open the RFI routes)', async () => {
    await expect(startPartnerSandbox({ pinnedVersion: 'garbage' })).rejects.toThrow('pinnedVersion');
    await expect(startPartnerSandbox({ pinnedVersion: '2026-6-1' })).rejects.toThrow('pinnedVersion');
    const sandbox = await startPartnerSandbox({ pinnedVersion: '2026-06-01' });
    try {
      await expect(sandbox.control.createClient({ pinnedVersion: 'zzz' })).rejects.toThrow('pinnedVersion');
      const api = await new Api(sandbox.sandboxBaseUrl, sandbox.credentials).login();
      const rfis = await api.call('GET', '/v1/rfis');
      expect(rfis.status).toBe(200);
      expect(rfis.headers.get('x-api-version')).toBe('2026-06-01');
    } finally {
      await sandbox.close();
    }
  });
});
