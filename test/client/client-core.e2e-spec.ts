import {
  PartnerAuthenticationError,
  PartnerConflictError,
  PartnerNotFoundError,
  PartnerPermissionError,
  PartnerServerError,
  PartnerValidationError,
} from '@partner-payments/nestjs/errors';
import type { PartnerHttpEvent } from '@partner-payments/nestjs/observability';
import {
  fundedSetup,
  individual,
  startClientWorld,
  stopClientWorld,
  type ClientWorld,
} from './client.fixture';

describe('client core against the sandbox (real socket)', () => {
  let world: ClientWorld;
  afterEach(() => stopClientWorld(world));

  it('joins every path under /sandbox and sends x-api-key + bearer + version', async () => {
    world = await startClientWorld();
    await world.graph.client.users.list({ limit: 5 });
    const log = await world.sandbox.control.requestLog();
    expect(log.map((e) => `${e.method} ${e.path.split('?')[0]}`)).toEqual([
      'POST /sandbox/auth',
      'GET /sandbox/v1/users',
    ]);
    const users = log[1];
    expect(users.status).toBe(200);
    expect(users.headers['x-api-version']).toBe('2026-04-14');
    expect(users.headers['x-api-key']).toBeDefined();
    expect(users.headers.authorization).toBeDefined();
    expect(log[0].headers.authorization).toBeUndefined();
  });

  it('300 concurrent calls on a cold cache make exactly one POST /auth', async () => {
    // 300 unpaced calls at once exceed the partner's 20/s (burst 50): this test is about the token
    // cache, so both limiters are off (the sandbox limits by default, evidence §1).
    world = await startClientWorld({ rateLimit: false }, { rateLimit: false });
    await Promise.all(Array.from({ length: 300 }, () => world.graph.client.users.list({ limit: 1 })));
    const counters = await world.sandbox.control.counters();
    expect(counters.authCalls).toBe(1);
    expect(counters.requests['GET /v1/users']).toBe(300);
  });

  it('an expired token (401) is re-authenticated once and the call succeeds', async () => {
    world = await startClientWorld();
    await world.graph.client.users.list();
    await world.sandbox.control.expireTokensNow();
    await expect(world.graph.client.users.list()).resolves.toMatchObject({ data: [] });
    expect((await world.sandbox.control.counters()).authCalls).toBe(2);
  });

  it('wrong credentials: a typed authentication error, one POST /auth, no loop', async () => {
    world = await startClientWorld({}, { password: 'wrong-password' });
    const err = await world.graph.client.users.list().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(PartnerAuthenticationError);
    expect((err as PartnerAuthenticationError).status).toBe(401);
    expect((err as Error).message).not.toContain('wrong-password');
    expect((await world.sandbox.control.counters()).authCalls).toBe(1);
  });

  it('a lost answer on a payout create is retried with the same Idempotency-Key: one payout', async () => {
    world = await startClientWorld();
    const ids = await fundedSetup(world);
    await world.sandbox.control.addFault({
      kind: 'accepted_then_reset',
      route: 'POST /v1/virtual-accounts/:id/payout',
      times: 1,
    });
    let meta: { idempotencyKey: string | null; attempts: number } | undefined;
    const payout = await world.graph.client.payouts.create(
      ids.vaId,
      { amount: '25.00', currency: 'USD', recipient_id: ids.recipientId },
      { onMeta: (m) => (meta = m) },
    );
    expect(payout.status).toBe('CREATED');
    expect(meta?.attempts).toBe(2);
    const counters = await world.sandbox.control.counters();
    expect(counters.created.payouts).toBe(1);
    expect(counters.idempotentReplays).toBe(1);
    const keys = (await world.sandbox.control.requestLog())
      .filter((e) => e.route === 'POST /v1/virtual-accounts/:id/payout')
      .map((e) => e.headers['idempotency-key']);
    expect(keys).toHaveLength(2);
    expect(keys[0]).toBe(meta?.idempotencyKey);
    expect(keys[1]).toBe(keys[0]);
  });

  it('5xx and 429 on a GET are retried (Retry-After honoured); a PUT is not retried on 5xx', async () => {
    world = await startClientWorld();
    const { userId } = await fundedSetup(world);
    await world.sandbox.control.addFault({ kind: 'server_error', route: 'GET /v1/users/:id', times: 1 });
    await world.sandbox.control.addFault({
      kind: 'rate_limit',
      route: 'GET /v1/users/:id',
      times: 1,
      retryAfterSeconds: 1,
    });
    const started = Date.now();
    await expect(world.graph.client.users.get(userId)).resolves.toMatchObject({ userId });
    expect(Date.now() - started).toBeGreaterThanOrEqual(900);
    await world.sandbox.control.addFault({ kind: 'server_error', route: 'PUT /v1/users/:id', times: 1 });
    await expect(world.graph.client.users.update(userId, { email: 'x@example.com' })).rejects.toBeInstanceOf(
      PartnerServerError,
    );
    expect((await world.sandbox.control.counters()).requests['PUT /v1/users/:id']).toBe(1);
  });

  it('a reset connection on a GET is retried', async () => {
    world = await startClientWorld();
    await world.sandbox.control.addFault({ kind: 'reset', route: 'GET /v1/users', times: 1 });
    await expect(world.graph.client.users.list()).resolves.toBeDefined();
  });

  it('typed errors from real answers: 400 with fieldErrors, 404, 403 route, 409 duplicate virtual account', async () => {
    world = await startClientWorld();
    const { client } = world.graph;
    // users.create refuses it before I/O; the raw call lets the sandbox answer its Zod 400 (evidence §2)
    const bad = await world.graph.http
      .request({ method: 'POST', path: '/v1/users', body: { ...individual(), type: 'robot' } })
      .catch((e: unknown) => e);
    expect(bad).toBeInstanceOf(PartnerValidationError);
    expect((bad as PartnerValidationError).fieldErrors.map((f) => f.field)).toContain('type');
    await expect(client.payouts.get('6f1c4a4e-0000-4000-8000-000000000000')).rejects.toBeInstanceOf(
      PartnerNotFoundError,
    );
    const route = await world.graph.http
      .request({ method: 'GET', path: '/v1/api-keys' })
      .catch((e: unknown) => e);
    expect(route).toBeInstanceOf(PartnerPermissionError);
    expect((route as PartnerPermissionError).code).toBe('invalid_request');
    const ids = await fundedSetup(world);
    const dup = await client.virtualAccounts
      .create({ user_id: ids.userId, bank: 'bank_a' })
      .catch((e: unknown) => e);
    expect(dup).toBeInstanceOf(PartnerConflictError);
  });

  it("versioning: upgrade pins the account; 'until-pinned' then drops the header but RFI calls keep 2026-06-01", async () => {
    world = await startClientWorld({}, { sendVersionHeader: 'until-pinned' });
    const { client, versionState } = world.graph;
    await client.users.list();
    const result = await client.versioning.upgrade('2026-04-14');
    expect(result.currentVersion).toBe('2026-04-14');
    expect(typeof result.previousVersion).toBe('string');
    expect(versionState.isPinned('2026-04-14')).toBe(true);
    await client.users.list();
    await client.rfis.list();
    const log = (await world.sandbox.control.requestLog()).filter((e) => e.path.startsWith('/sandbox/v1/'));
    expect(log.map((e) => [e.route, e.headers['x-api-version']])).toEqual([
      ['GET /v1/users', '2026-04-14'],
      ['POST /v1/versioning/upgrade', '2026-04-14'],
      ['GET /v1/users', undefined],
      ['GET /v1/rfis', '2026-06-01'],
    ]);
    // repeating the same target is harmless
    await expect(client.versioning.upgrade('2026-04-14')).resolves.toMatchObject({
      previousVersion: '2026-04-14',
    });
  });

  it('client-side rate limiter spaces a burst beyond the bucket, so the server never answers 429', async () => {
    // server: 20/s burst 5; client configured below it (10/s burst 5) to leave headroom for socket jitter
    world = await startClientWorld(
      { rateLimit: { perSecond: 20, burst: 5 } },
      { rateLimit: { requestsPerSecond: 10, burst: 5 } },
    );
    const started = Date.now();
    await Promise.all(Array.from({ length: 10 }, () => world.graph.client.users.list({ limit: 1 })));
    // 11 calls (auth included): 5 at once, then one per 100 ms
    expect(Date.now() - started).toBeGreaterThanOrEqual(550);
    const statuses = (await world.sandbox.control.requestLog()).map((e) => e.status);
    expect(statuses).toHaveLength(11);
    expect(statuses).not.toContain(429);
  });

  it('without the client limiter the same burst meets the server limit, and 429s are retried', async () => {
    world = await startClientWorld(
      { rateLimit: { perSecond: 20, burst: 5 } },
      { rateLimit: false, maxRetries: 3 },
    );
    await Promise.all(Array.from({ length: 10 }, () => world.graph.client.users.list({ limit: 1 })));
    const statuses = (await world.sandbox.control.requestLog()).map((e) => e.status);
    expect(statuses).toContain(429);
    expect(statuses.filter((s) => s === 200)).toHaveLength(11);
  });

  it('logs never carry the api key, password, bearer token or account numbers', async () => {
    const lines: string[] = [];
    const capture = (...args: unknown[]) =>
      void lines.push(args.map((a) => (a instanceof Error ? a.stack : String(a))).join(' '));
    world = await startClientWorld(
      {},
      { logger: { log: capture, warn: capture, error: capture, debug: capture, verbose: capture } },
    );
    const ids = await fundedSetup(world);
    await world.graph.client.payouts.create(ids.vaId, {
      amount: '10.00',
      currency: 'USD',
      recipient_id: ids.recipientId,
    });
    await world.sandbox.control.addFault({ kind: 'server_error', route: 'GET /v1/recipients/:id', times: 1 });
    await world.graph.client.recipients.get(ids.recipientId);
    const token = await world.graph.tokens.getToken();
    await stopClientWorld(world);
    world = await startClientWorld(
      {},
      {
        password: 'pw-that-must-not-leak',
        logger: { log: capture, warn: capture, error: capture, debug: capture },
      },
    );
    await world.graph.client.users.list().catch(() => undefined);
    expect(lines.length).toBeGreaterThan(5); // debug lines were written
    const text = lines.join('\n');
    for (const secret of [
      world.sandbox.credentials.apiKey,
      'pw-that-must-not-leak',
      world.sandbox.credentials.password,
      token,
      '123456789',
    ]) {
      expect(text).not.toContain(secret);
    }
  });

  it('lifecycle events carry method, path, status, duration, attempt and no secrets', async () => {
    const events: PartnerHttpEvent[] = [];
    world = await startClientWorld({}, { onHttpEvent: (e) => events.push(e) });
    await world.graph.client.users.list();
    const outcomes = events.filter((e) => e.type === 'response');
    expect(outcomes.map((e) => [e.method, e.path, e.status, e.attempt])).toEqual([
      ['POST', '/auth', 200, 1],
      ['GET', '/v1/users', 200, 1],
    ]);
    expect(outcomes.every((e) => typeof e.durationMs === 'number')).toBe(true);
    const text = JSON.stringify(events);
    const { apiKey, password } = world.sandbox.credentials;
    expect(text).not.toContain(apiKey);
    expect(text).not.toContain(password);
  });
});
