import {
  PartnerAuthenticationError,
  PartnerServerError,
  PartnerTimeoutError,
} from '../errors/partner-api.errors';
import type { PartnerTokenEvent } from '../observability/hooks.util';
import {
  authOk,
  createTestClient,
  FakeClock,
  json,
  pathOf,
  startLocalServer,
  type LocalServer,
} from '../http/local-server.fixture';

describe('PartnerTokenManager (spec 5) over a real local server', () => {
  let server: LocalServer;
  beforeEach(async () => {
    server = await startLocalServer();
  });
  afterEach(() => server.close());

  const authCalls = (): number => server.requests.filter((r) => pathOf(r) === '/auth').length;

  it('POSTs /auth with x-api-key only and { client_id, password }, under the sandbox prefix', async () => {
    server.setHandler((_req, res) => authOk(res, 'tok-A'));
    const { tokens } = createTestClient(server.baseUrl);
    await expect(tokens.getToken()).resolves.toBe('tok-A');
    const req = server.requests[0];
    expect(req.method).toBe('POST');
    expect(req.url).toBe('/sandbox/auth');
    expect(req.headers['x-api-key']).toBe('key-secret-1');
    expect(req.headers.authorization).toBeUndefined();
    expect(req.headers['x-api-version']).toBeUndefined();
    expect(req.headers['idempotency-key']).toBeUndefined();
    expect(JSON.parse(req.body)).toEqual({ client_id: 'client-1', password: 'pw-secret-1' });
  });

  it('1000 concurrent callers on a cold cache make exactly one POST /auth', async () => {
    server.setHandler((_req, res) => setTimeout(() => authOk(res, 'tok-shared'), 30));
    const { tokens } = createTestClient(server.baseUrl);
    const results = await Promise.all(Array.from({ length: 1000 }, () => tokens.getToken()));
    expect(authCalls()).toBe(1);
    expect(new Set(results)).toEqual(new Set(['tok-shared']));
  });

  it('current() hands out the held token without I/O, and null once less than the safety margin remains', async () => {
    const clock = new FakeClock();
    server.setHandler((_req, res) => authOk(res, 'tok-C', 3600));
    const { tokens } = createTestClient(server.baseUrl, { tokenRefreshSkewSeconds: 300 }, clock);
    expect(tokens.current()).toBeNull();
    await tokens.getToken();
    expect(tokens.current()).toBe('tok-C');
    clock.t += (3600 - 301) * 1000;
    expect(tokens.current()).toBe('tok-C');
    expect(authCalls()).toBe(1); // outside the skew: no refresh
    clock.t += (301 - 29) * 1000; // 29 s left: below the 30 s margin, the caller must wait for /auth
    expect(tokens.current()).toBeNull();
    expect(authCalls()).toBe(1); // never awaited here: no I/O
  });

  it('reads expires_in (86400 seen in the sandbox) instead of assuming 3600', async () => {
    const clock = new FakeClock();
    let n = 0;
    server.setHandler((_req, res) => authOk(res, `tok-${++n}`, 86400));
    const { tokens } = createTestClient(server.baseUrl, {}, clock);
    await tokens.getToken();
    clock.t += 2 * 3600 * 1000; // past a 3600 s lifetime, far from 86400 s
    await expect(tokens.getToken()).resolves.toBe('tok-1');
    expect(authCalls()).toBe(1);
    expect(tokens.expiresAt).toBe(1_000_000 + 86400 * 1000);
  });

  it('refreshes once fewer than tokenRefreshSkewSeconds remain, not before, in the background', async () => {
    const clock = new FakeClock();
    let n = 0;
    server.setHandler((_req, res) => authOk(res, `tok-${++n}`, 3600));
    const { tokens } = createTestClient(server.baseUrl, { tokenRefreshSkewSeconds: 300 }, clock);
    await tokens.getToken();
    clock.t += (3600 - 301) * 1000;
    await expect(tokens.getToken()).resolves.toBe('tok-1');
    expect(authCalls()).toBe(1);
    clock.t += 2000; // now 299 s remain: the held token still goes out, a refresh starts
    await expect(tokens.getToken()).resolves.toBe('tok-1');
    await expect(tokens.refresh()).resolves.toBe('tok-2'); // joins the refresh in flight
    await expect(tokens.getToken()).resolves.toBe('tok-2');
    expect(authCalls()).toBe(2);
  });

  it('below the safety margin (or past expiry) callers wait for the refresh', async () => {
    const clock = new FakeClock();
    let n = 0;
    server.setHandler((_req, res) => authOk(res, `tok-${++n}`, 3600));
    const { tokens } = createTestClient(server.baseUrl, { tokenRefreshSkewSeconds: 300 }, clock);
    await tokens.getToken();
    clock.t += (3600 - 20) * 1000; // 20 s left: less than the 30 s margin
    expect(tokens.current()).toBeNull();
    await expect(tokens.getToken()).resolves.toBe('tok-2');
    clock.t += 3600 * 1000; // expired
    await expect(tokens.getToken()).resolves.toBe('tok-3');
  });

  it('a skew longer than the lifetime does not make every call re-authenticate', async () => {
    const clock = new FakeClock();
    let n = 0;
    server.setHandler((_req, res) => authOk(res, `tok-${++n}`, 60));
    const { tokens } = createTestClient(server.baseUrl, { tokenRefreshSkewSeconds: 300 }, clock);
    await tokens.getToken();
    clock.t += 20_000;
    await expect(tokens.getToken()).resolves.toBe('tok-1');
    clock.t += 15_000; // 25 s left < half of 60 s: refreshed (in the background; 15 s margin left)
    await expect(tokens.getToken()).resolves.toBe('tok-1');
    await expect(tokens.refresh()).resolves.toBe('tok-2');
    clock.t += 10_000;
    await expect(tokens.getToken()).resolves.toBe('tok-2');
    expect(authCalls()).toBe(2);
  });

  it('a refused credential pair surfaces a typed PartnerAuthenticationError and clears the cache', async () => {
    const clock = new FakeClock();
    server.setHandler((_req, res) => authOk(res, 'tok-1', 3600));
    const { tokens } = createTestClient(server.baseUrl, {}, clock);
    await tokens.getToken();
    server.setHandler((_req, res) => json(res, 401, { code: 'unauthorized', message: 'bad credentials' }));
    const err = await tokens.refresh().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(PartnerAuthenticationError);
    expect(err).toMatchObject({ status: 401, code: 'unauthorized' });
    expect((err as Error).message).not.toContain('pw-secret-1');
    expect(tokens.expiresAt).toBeNull();
    // 401 on /auth is not retried
    expect(authCalls()).toBe(2);
  });

  it("a gateway 403 { message: 'Forbidden' } on /auth (no x-api-key reached it) is a PartnerAuthenticationError, not retried", async () => {
    // evidence §1/§2 [T3r DRIFT-6, 49]: the gateway's answer when x-api-key is missing; the client
    // always sends it (first test), so this means the key was stripped or refused on the way.
    server.setHandler((_req, res) => json(res, 403, { message: 'Forbidden' }));
    const { tokens } = createTestClient(server.baseUrl, { maxRetries: 3 });
    const err = await tokens.getToken().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(PartnerAuthenticationError);
    expect(err).toMatchObject({ status: 403 });
    expect((err as Error).message).toContain('Forbidden');
    expect(server.requests[0].headers['x-api-key']).toBe('key-secret-1');
    expect(authCalls()).toBe(1);
  });

  it('an early refresh: the partner down keeps the still-valid token; credentials refused are thrown', async () => {
    const clock = new FakeClock();
    server.setHandler((_req, res) => authOk(res, 'tok-1', 3600));
    const { tokens } = createTestClient(
      server.baseUrl,
      { tokenRefreshSkewSeconds: 300, maxRetries: 0 },
      clock,
    );
    await tokens.getToken();
    clock.t += (3600 - 200) * 1000; // inside the skew, 200 s before expiry
    server.setHandler((_req, res) => json(res, 503, { message: 'down' }));
    await expect(tokens.getToken()).resolves.toBe('tok-1');
    await expect(tokens.refresh()).rejects.toBeInstanceOf(PartnerServerError); // the background one
    await expect(tokens.getToken()).resolves.toBe('tok-1'); // kept; cool-down: no new /auth
    expect(authCalls()).toBe(2);
    server.setHandler((_req, res) => json(res, 401, { code: 'unauthorized', message: 'bad credentials' }));
    clock.t += 31_000; // past the cool-down: the next background refresh is refused
    await expect(tokens.getToken()).resolves.toBe('tok-1');
    await expect(tokens.refresh()).rejects.toBeInstanceOf(PartnerAuthenticationError);
    expect(tokens.expiresAt).toBeNull(); // credentials refused: nothing cached survives
    await expect(tokens.getToken()).rejects.toBeInstanceOf(PartnerAuthenticationError);
    expect(authCalls()).toBe(4);
  });

  it('/auth down while the held token has minutes left: calls go on at once, /auth is tried once per cool-down', async () => {
    const clock = new FakeClock();
    let auth: 'ok' | 'hang' | 'down' = 'ok';
    const tokenEvents: PartnerTokenEvent[] = [];
    const warnings: string[] = [];
    server.setHandler((req, res) => {
      if (pathOf(req) !== '/auth') return json(res, 200, { ok: true });
      if (auth === 'ok') return authOk(res, 'tok-1', 600);
      if (auth === 'down') return json(res, 503, { message: 'Service Unavailable' });
      return undefined; // hangs: each attempt ends at timeoutMs
    });
    const { http, tokens } = createTestClient(
      server.baseUrl,
      {
        tokenRefreshSkewSeconds: 300,
        timeoutMs: 500,
        maxRetries: 2,
        onTokenEvent: (e) => tokenEvents.push(e),
        logger: { log: () => undefined, error: () => undefined, warn: (m: string) => warnings.push(m) },
      },
      clock,
    );
    await http.request({ method: 'GET', path: '/v1/users' });
    clock.t += 400_000; // 200 s left: inside the 300 s skew, the token is still valid
    auth = 'hang';
    const calls = await Promise.all([1, 2, 3].map(() => http.request({ method: 'GET', path: '/v1/users' })));
    // Answered with the held token while the one background POST /auth still hangs (it would
    // otherwise have waited for 3 attempts of 500 ms each).
    expect(calls.map((c) => c.meta.status)).toEqual([200, 200, 200]);
    expect(authCalls()).toBeLessThanOrEqual(2);
    expect(tokenEvents).toEqual([expect.objectContaining({ type: 'refreshed' })]);
    await expect(tokens.refresh()).rejects.toBeInstanceOf(PartnerTimeoutError); // joins the background one
    expect(authCalls()).toBe(1 + 3);
    expect(tokenEvents[1]).toMatchObject({ type: 'failed', reason: 'unavailable', status: null });
    expect(warnings.some((w) => w.includes('in the background failed'))).toBe(true);

    // Within the cool-down, calls send no /auth.
    auth = 'down';
    for (let i = 0; i < 5; i++) await http.request({ method: 'GET', path: '/v1/users' });
    expect(authCalls()).toBe(4);
    // After it, one more background refresh (with its retries), still without failing a call.
    clock.t += 31_000;
    await http.request({ method: 'GET', path: '/v1/users' });
    await expect(tokens.refresh()).rejects.toBeInstanceOf(PartnerServerError);
    expect(authCalls()).toBe(4 + 3);
    expect(
      server.requests
        .filter((r) => pathOf(r) !== '/auth')
        .every((r) => r.headers.authorization === 'Bearer tok-1'),
    ).toBe(true);

    // Past expiry with /auth still down: no token to send, so the call fails typed, sends nothing.
    clock.t += 200_000;
    const apiBefore = server.requests.length - authCalls();
    await expect(http.request({ method: 'GET', path: '/v1/users' })).rejects.toBeInstanceOf(
      PartnerServerError,
    );
    expect(server.requests.length - authCalls()).toBe(apiBefore);
  });

  it('concurrent callers all see the same failure, and the next call tries again', async () => {
    server.setHandler((_req, res) =>
      setTimeout(() => json(res, 401, { code: 'unauthorized', message: 'no' }), 20),
    );
    const { tokens } = createTestClient(server.baseUrl);
    const results = await Promise.allSettled(Array.from({ length: 50 }, () => tokens.getToken()));
    expect(
      results.every((r) => r.status === 'rejected' && r.reason instanceof PartnerAuthenticationError),
    ).toBe(true);
    expect(authCalls()).toBe(1);
    server.setHandler((_req, res) => authOk(res, 'tok-ok'));
    await expect(tokens.getToken()).resolves.toBe('tok-ok');
  });

  it('a 502/503/504 on /auth is retried, and a final failure is the partner unavailable (PartnerServerError), not a refused credential', async () => {
    let n = 0;
    server.setHandler((_req, res) =>
      ++n < 3 ? json(res, 503, { message: 'busy' }) : authOk(res, 'tok-after-retry'),
    );
    const { tokens } = createTestClient(server.baseUrl, { maxRetries: 2 });
    await expect(tokens.getToken()).resolves.toBe('tok-after-retry');
    expect(n).toBe(3);

    n = 0;
    server.setHandler((_req, res) => {
      n++;
      json(res, 502, 'bad gateway');
    });
    const err = await tokens.refresh().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(PartnerServerError);
    expect(err).not.toBeInstanceOf(PartnerAuthenticationError);
    expect(err).toMatchObject({ status: 502 });
    expect(n).toBe(3);
  });

  it('a 500 on /auth after the client_id was accepted is the partner failing: retried, and a held valid token carries on', async () => {
    let n = 0;
    server.setHandler((_req, res) =>
      ++n === 1
        ? authOk(res, 'tok-1')
        : json(res, 500, { status: 'error', message: 'Internal server error' }),
    );
    const { tokens } = createTestClient(server.baseUrl, { maxRetries: 2 });
    await expect(tokens.getToken()).resolves.toBe('tok-1');
    // An early refresh (forced here) fails with 500 three times: the token in hand is still valid.
    const err = await tokens.refresh().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(PartnerServerError);
    expect(err).not.toBeInstanceOf(PartnerAuthenticationError);
    expect(n).toBe(4);
    expect(tokens.expiresAt).not.toBeNull(); // not thrown away
  });

  it('a 500 on /auth is a refused credential (the partner answers 500 for an unknown client_id, evidence §1): one attempt, PartnerAuthenticationError', async () => {
    let n = 0;
    server.setHandler((_req, res) => {
      n++;
      json(res, 500, { status: 'error', message: 'Internal server error' });
    });
    const { tokens } = createTestClient(server.baseUrl, { maxRetries: 2 });
    const err = await tokens.getToken().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(PartnerAuthenticationError);
    expect(err).toMatchObject({ status: 500 });
    expect((err as Error).message).toMatch(/unknown client_id/);
    expect(n).toBe(1);
  });

  it('a 200 without access_token is an authentication error, not a cached "undefined"', async () => {
    server.setHandler((_req, res) => json(res, 200, { message: 'ok', data: {} }));
    const { tokens } = createTestClient(server.baseUrl);
    await expect(tokens.getToken()).rejects.toBeInstanceOf(PartnerAuthenticationError);
  });

  it('invalidate(stale) keeps a fresher token another caller already obtained', async () => {
    let n = 0;
    server.setHandler((_req, res) => authOk(res, `tok-${++n}`));
    const { tokens } = createTestClient(server.baseUrl);
    const first = await tokens.getToken();
    tokens.invalidate(first);
    const second = await tokens.getToken();
    tokens.invalidate(first); // a late 401 for the old token
    await expect(tokens.getToken()).resolves.toBe(second);
    expect(authCalls()).toBe(2);
  });
});
