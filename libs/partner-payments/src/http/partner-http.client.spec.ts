import {
  PartnerAuthenticationError,
  PartnerConnectionError,
  PartnerIdempotencyConflictError,
  PartnerRateLimitError,
  PartnerServerError,
  PartnerTimeoutError,
  PartnerValidationError,
} from '../errors/partner-api.errors';
import { PartnerLocalValidationError } from '../errors/partner.errors';
import type { PartnerHttpEvent } from './http.types';
import {
  authOk,
  createTestClient,
  json,
  pathOf,
  startLocalServer,
  type LocalServer,
  type RecordedRequest,
} from './local-server.fixture';

describe('PartnerHttpClient over a real local server', () => {
  let server: LocalServer;
  beforeEach(async () => {
    server = await startLocalServer();
  });
  afterEach(() => server.close());

  const apiCalls = (): RecordedRequest[] => server.requests.filter((r) => pathOf(r) !== '/auth');
  /** Serves /auth, delegates the rest. */
  const route = (api: Parameters<LocalServer['setHandler']>[0], token = 'tok-1'): void =>
    server.setHandler((req, res, raw) => (pathOf(req) === '/auth' ? authOk(res, token) : api(req, res, raw)));

  it('sends the common headers (spec 4) and keeps the /sandbox prefix', async () => {
    route((_req, res) => json(res, 200, { ok: true }, { 'x-request-id': 'req-9' }));
    const { http } = createTestClient(server.baseUrl);
    const res = await http.request<{ ok: boolean }>({
      method: 'GET',
      path: '/v1/users',
      query: { limit: 5 },
    });
    expect(res.data).toEqual({ ok: true });
    expect(res.meta).toMatchObject({
      status: 200,
      requestId: 'req-9',
      idempotencyKey: null,
      apiVersion: '2026-04-14',
      attempts: 1,
    });
    const req = apiCalls()[0];
    expect(req.url).toBe('/sandbox/v1/users?limit=5');
    expect(req.headers['x-api-key']).toBe('key-secret-1');
    expect(req.headers.authorization).toBe('Bearer tok-1');
    expect(req.headers['x-api-version']).toBe('2026-04-14');
    expect(req.headers['idempotency-key']).toBeUndefined();
  });

  it('keeps a query written into the path and merges it with `query`', async () => {
    route((_req, res) => json(res, 200, {}));
    const { http } = createTestClient(server.baseUrl);
    await http.request({ method: 'GET', path: '/v1/users?limit=5', query: { offset: 10 } });
    expect(apiCalls().map((r) => r.url)).toEqual(['/sandbox/v1/users?limit=5&offset=10']);
  });

  it('refuses NaN/negative per-call maxRetries and timeoutMs before any I/O, naming the field', async () => {
    route((_req, res) => json(res, 503, {}));
    const { http } = createTestClient(server.baseUrl);
    const err = await http
      .request({ method: 'GET', path: '/v1/users', maxRetries: Number.NaN, timeoutMs: -1 })
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(PartnerLocalValidationError);
    expect((err as PartnerLocalValidationError).fieldErrors.map((f) => f.field)).toEqual([
      'maxRetries',
      'timeoutMs',
    ]);
    expect(server.requests).toHaveLength(0);
  });

  it('a caller key that is not a UUID v4 is refused before any I/O on the routes that de-duplicate (spec 8)', async () => {
    route((_req, res) => json(res, 201, {}));
    const { http } = createTestClient(server.baseUrl);
    const err = await http
      .request({ method: 'POST', path: '/v1/users', body: {}, idempotencyKey: 'order-42' })
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(PartnerLocalValidationError);
    expect((err as PartnerLocalValidationError).fieldErrors.map((f) => f.field)).toEqual(['idempotencyKey']);
    expect(server.requests).toHaveLength(0);
    // elsewhere the key is the caller's business and is sent as given
    await http.request({ method: 'PATCH', path: '/v1/rfis/r/items', body: {}, idempotencyKey: 'order-42' });
    expect(apiCalls().map((r) => r.headers['idempotency-key'])).toEqual(['order-42']);
  });

  it('production joins onto the base without /sandbox', async () => {
    server.setHandler((req, res) => (req.url.endsWith('/auth') ? authOk(res) : json(res, 200, {})));
    const { http } = createTestClient(`${server.baseUrl}/partner-api`, { environment: 'production' });
    await http.request({ method: 'GET', path: '/v1/payouts/p1' });
    expect(server.requests.map((r) => r.url)).toEqual(['/partner-api/auth', '/partner-api/v1/payouts/p1']);
  });

  it('makes one Idempotency-Key per logical call and reuses it on every retry', async () => {
    let n = 0;
    route((_req, res) =>
      ++n < 3 ? json(res, 503, { message: 'busy' }) : json(res, 201, { id: 'p1', status: 'created' }),
    );
    const { http } = createTestClient(server.baseUrl, { maxRetries: 2 });
    const res = await http.request({
      method: 'POST',
      path: '/v1/virtual-accounts/va-1/payout',
      body: { amount: '1.00' },
    });
    const keys = apiCalls().map((r) => r.headers['idempotency-key']);
    expect(keys).toHaveLength(3);
    expect(new Set(keys).size).toBe(1);
    expect(keys[0]).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(res.meta).toMatchObject({ idempotencyKey: keys[0], attempts: 3, status: 201 });
    // a second logical call gets a fresh key
    n = 10;
    await http.request({ method: 'POST', path: '/v1/virtual-accounts/va-1/payout', body: {} });
    expect(apiCalls()[3].headers['idempotency-key']).not.toBe(keys[0]);
  });

  it("the caller's key wins and survives retries", async () => {
    let n = 0;
    route((_req, res) => (++n < 2 ? json(res, 500, {}) : json(res, 201, { user_id: 'u1' })));
    const { http } = createTestClient(server.baseUrl);
    await http.request({
      method: 'POST',
      path: '/v1/users',
      body: {},
      idempotencyKey: '5b0c6c2e-8f4a-4d7b-9a31-2e6f0d1c7a10',
    });
    expect(apiCalls().map((r) => r.headers['idempotency-key'])).toEqual([
      '5b0c6c2e-8f4a-4d7b-9a31-2e6f0d1c7a10',
      '5b0c6c2e-8f4a-4d7b-9a31-2e6f0d1c7a10',
    ]);
  });

  it('never retries a write without Idempotency-Key after a 5xx', async () => {
    route((_req, res) => json(res, 500, { message: 'boom' }));
    const { http } = createTestClient(server.baseUrl, { maxRetries: 3 });
    const err = await http
      .request({ method: 'PATCH', path: '/v1/rfis/r1/items', body: { items: [] } })
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(PartnerServerError);
    expect(apiCalls()).toHaveLength(1);
  });

  it.each([
    // evidence §3 [T3r DRIFT-16]: a reused key made a second verification
    ['/v1/users/u-1/verifications', { type: 'api' }],
    // evidence §5 [D for-ai-agents]: listed as keyed, no replay ever observed
    [
      '/v1/virtual-accounts/va-1/liquidation-address',
      { network: 'ethereum', token: 'USDC', recipient_id: 'r' },
    ],
  ])('sends a key on POST %s but never replays it once sent', async (path, body) => {
    let n = 0;
    route((_req, res, raw) => (++n === 1 ? json(res, 503, { message: 'busy' }) : raw.socket.destroy()));
    const { http } = createTestClient(server.baseUrl, { maxRetries: 3 });
    const busy = await http.request({ method: 'POST', path, body }).catch((e: unknown) => e);
    expect(busy).toBeInstanceOf(PartnerServerError);
    const reset = await http.request({ method: 'POST', path, body }).catch((e: unknown) => e);
    expect(reset).toBeInstanceOf(PartnerConnectionError);
    expect(apiCalls()).toHaveLength(2);
    expect(apiCalls().map((r) => r.headers['idempotency-key'])).toEqual([
      expect.stringMatching(/^[0-9a-f-]{36}$/),
      expect.stringMatching(/^[0-9a-f-]{36}$/),
    ]);
  });

  it('a 409 IDEMPOTENCY_CONFLICT is a typed error and is never retried', async () => {
    route((_req, res) =>
      json(res, 409, { error: { code: 'IDEMPOTENCY_CONFLICT', message: 'Key reused', details: {} } }),
    );
    const { http } = createTestClient(server.baseUrl, { maxRetries: 3 });
    const err = await http
      .request({ method: 'POST', path: '/v1/recipients', body: { user_id: 'u' } })
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(PartnerIdempotencyConflictError);
    expect((err as PartnerIdempotencyConflictError).idempotencyKey).toBe(
      apiCalls()[0].headers['idempotency-key'],
    );
    expect((err as Error).message).toMatch(/already used with a different request body/);
    expect(apiCalls()).toHaveLength(1);
  });

  it('retries a GET on a reset connection (ECONNRESET) and then succeeds', async () => {
    let n = 0;
    route((_req, res, raw) => {
      if (++n === 1) raw.socket.destroy();
      else json(res, 200, { fine: true });
    });
    const { http } = createTestClient(server.baseUrl);
    const res = await http.request<{ fine: boolean }>({ method: 'GET', path: '/v1/payouts/p1' });
    expect(res.data.fine).toBe(true);
    expect(res.meta.attempts).toBe(2);
  });

  it('does not retry a reset connection on a write without key (it may have reached the server)', async () => {
    route((_req, _res, raw) => raw.socket.destroy());
    const { http } = createTestClient(server.baseUrl, { maxRetries: 3 });
    const err = await http
      .request({ method: 'PUT', path: '/v1/users/u1', body: {} })
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(PartnerConnectionError);
    expect((err as PartnerConnectionError).status).toBeNull();
    expect(apiCalls()).toHaveLength(1);
  });

  it('times out per attempt with a typed error', async () => {
    route(() => undefined); // never answers
    const { http } = createTestClient(server.baseUrl, { timeoutMs: 100, maxRetries: 0 });
    const err = await http.request({ method: 'GET', path: '/v1/users' }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(PartnerTimeoutError);
    expect((err as PartnerTimeoutError).code).toBe('etimedout');
  });

  it('per-call maxRetries and timeout override the module options', async () => {
    route((_req, res) => json(res, 503, {}));
    const { http } = createTestClient(server.baseUrl, { maxRetries: 5 });
    await expect(http.request({ method: 'GET', path: '/v1/users', maxRetries: 1 })).rejects.toBeInstanceOf(
      PartnerServerError,
    );
    expect(apiCalls()).toHaveLength(2);
  });

  it('honours Retry-After on 429 (capped) and surfaces retryAfterMs when giving up', async () => {
    route((_req, res) =>
      json(res, 429, { code: 'rate_limited', message: 'slow down' }, { 'retry-after': '0.04' }),
    );
    const { http } = createTestClient(server.baseUrl, { maxRetries: 1 });
    const started = Date.now();
    const err = await http.request({ method: 'GET', path: '/v1/users' }).catch((e: unknown) => e);
    expect(Date.now() - started).toBeGreaterThanOrEqual(35);
    expect(err).toBeInstanceOf(PartnerRateLimitError);
    expect((err as PartnerRateLimitError).retryAfterMs).toBe(40);
    expect(apiCalls()).toHaveLength(2);
  });

  it('maps an error body to a typed error carrying status, code, fieldErrors, requestId and the key', async () => {
    route((_req, res) =>
      json(
        res,
        400,
        { code: 'validation_error', message: 'bad', errors: [{ field: 'email', message: 'invalid' }] },
        { 'x-request-id': 'r-1' },
      ),
    );
    const { http } = createTestClient(server.baseUrl);
    const err = (await http
      .request({
        method: 'POST',
        path: '/v1/users',
        body: {},
        idempotencyKey: '9e8d7c6b-5a4f-4e3d-8c2b-1a0f9e8d7c6b',
      })
      .catch((e: unknown) => e)) as PartnerValidationError;
    expect(err).toBeInstanceOf(PartnerValidationError);
    expect(err).toMatchObject({
      status: 400,
      code: 'validation_error',
      requestId: 'r-1',
      idempotencyKey: '9e8d7c6b-5a4f-4e3d-8c2b-1a0f9e8d7c6b',
    });
    expect(err.fieldErrors).toEqual([{ field: 'email', message: 'invalid' }]);
    expect(apiCalls()).toHaveLength(1);
  });

  it("'until-pinned' drops X-Api-Version once pinned, except for RFI and required calls", async () => {
    route((_req, res) => json(res, 200, {}));
    const { http, versionState } = createTestClient(server.baseUrl, { sendVersionHeader: 'until-pinned' });
    await http.request({ method: 'GET', path: '/v1/users' });
    versionState.markPinned('2026-04-14');
    await http.request({ method: 'GET', path: '/v1/users' });
    await http.request({ method: 'GET', path: '/v1/rfis/r1', area: 'rfis' });
    await http.request({
      method: 'GET',
      path: '/v1/virtual-accounts/v/liquidation-address',
      versionHeaderRequired: true,
    });
    expect(apiCalls().map((r) => r.headers['x-api-version'])).toEqual([
      '2026-04-14',
      undefined,
      '2026-06-01',
      '2026-04-14',
    ]);
  });

  it('emits lifecycle events without bodies or secrets', async () => {
    let n = 0;
    route((_req, res) => (++n === 1 ? json(res, 503, {}) : json(res, 200, { secret: 'body' })));
    const seen: PartnerHttpEvent[] = [];
    const { http } = createTestClient(server.baseUrl, { onHttpEvent: (e) => seen.push(e) });
    await http.request({ method: 'GET', path: '/v1/users', query: { email: 'x@y.z' } });
    const api = seen.filter((e) => e.path === '/v1/users');
    expect(api.map((e) => [e.type, e.attempt, e.status, e.willRetry])).toEqual([
      ['request', 1, undefined, undefined],
      ['response', 1, 503, true],
      ['request', 2, undefined, undefined],
      ['response', 2, 200, false],
    ]);
    expect(api[1].durationMs).toEqual(expect.any(Number));
    const text = JSON.stringify(seen);
    for (const secret of ['key-secret-1', 'pw-secret-1', 'tok-1', 'x@y.z', 'body'])
      expect(text).not.toContain(secret);
  });

  it('a throwing listener does not fail the call', async () => {
    route((_req, res) => json(res, 200, {}));
    const { http } = createTestClient(server.baseUrl, {
      onHttpEvent: () => {
        throw new Error('listener bug');
      },
    });
    await expect(http.request({ method: 'GET', path: '/v1/users' })).resolves.toBeDefined();
  });

  it('extra headers pass, reserved ones cannot be replaced', async () => {
    route((_req, res) => json(res, 200, {}));
    const { http } = createTestClient(server.baseUrl);
    await http.request({
      method: 'GET',
      path: '/v1/users',
      headers: { 'X-Trace-Id': 't1', 'x-api-key': 'other' },
    });
    expect(apiCalls()[0].headers['x-trace-id']).toBe('t1');
    expect(apiCalls()[0].headers['x-api-key']).toBe('key-secret-1');
  });

  it('ECONNREFUSED is a typed connection error after the retries', async () => {
    const { http } = createTestClient('http://127.0.0.1:1', { maxRetries: 1 });
    const err = await http.request({ method: 'GET', path: '/v1/users' }).catch((e: unknown) => e);
    // the token call fails first: the partner unreachable is a connection error (retry later),
    // never an authentication error that would read as "our credentials are wrong"
    expect(err).toBeInstanceOf(PartnerConnectionError);
    expect(err).not.toBeInstanceOf(PartnerAuthenticationError);
    expect((err as PartnerConnectionError).message).toContain('/auth');
  });
});
