import { startPartnerSandbox } from '@partner-payments/testing';
import { Api, individual, useWorld } from './sandbox.fixture';
import { fundedSetup } from './funded-setup.fixture';

describe('sandbox: faults on demand (control API)', () => {
  const world = useWorld();

  it('latency on one route delays only that route', async () => {
    // 3 s of latency against a 2 s bound for the other route: a delayed route stays over the bound,
    // and a local call under it even if a loaded CI machine stalls the process for a second.
    await world.sandbox.control.addFault({ kind: 'latency', route: 'GET /v1/users', latencyMs: 3000 });
    let t = Date.now();
    expect((await world.api.call('GET', '/v1/users')).status).toBe(200);
    expect(Date.now() - t).toBeGreaterThanOrEqual(2990);
    t = Date.now();
    await world.api.call('GET', `/v1/recipients?user_id=${crypto.randomUUID()}`);
    expect(Date.now() - t).toBeLessThan(2000);
    expect((await world.sandbox.control.faults())[0]).toMatchObject({ kind: 'latency', times: -1, hits: 1 });
  });

  it('a 5xx burst answers `times` errors then recovers; a global fault hits every route', async () => {
    await world.sandbox.control.addFault({
      kind: 'server_error',
      route: 'GET /v1/users',
      times: 2,
      status: 502,
    });
    const statuses = [];
    for (let i = 0; i < 3; i++) statuses.push((await world.api.call('GET', '/v1/users')).status);
    expect(statuses).toEqual([502, 502, 200]);
    await world.sandbox.control.addFault({ kind: 'server_error' });
    const auth = await world.api.call('POST', '/auth', { body: {}, auth: false });
    expect(auth.status).toBe(503);
    expect(auth.body).toMatchObject({ statusCode: 503, message: expect.any(String) });
    expect((await world.api.call('GET', '/v1/users')).status).toBe(200);
  });

  it('429 with Retry-After', async () => {
    await world.sandbox.control.addFault({
      kind: 'rate_limit',
      route: 'POST /v1/users',
      retryAfterSeconds: 3,
    });
    const answer = await world.api.call('POST', '/v1/users', { body: individual() });
    expect(answer.status).toBe(429);
    expect(answer.headers.get('retry-after')).toBe('3');
    expect(answer.body.code).toBe('rate_limited');
    expect((await world.sandbox.control.counters()).created.users).toBe(0);
  });

  it('connection reset mid-request: the client gets a network error and nothing is created', async () => {
    await world.sandbox.control.addFault({ kind: 'reset', route: 'POST /v1/users' });
    await expect(world.api.call('POST', '/v1/users', { body: individual() })).rejects.toThrow();
    expect((await world.sandbox.control.counters()).created.users).toBe(0);
    const log = await world.sandbox.control.requestLog();
    expect(log.at(-1)).toMatchObject({ route: 'POST /v1/users', status: null, fault: 'reset' });
    expect((await world.api.call('POST', '/v1/users', { body: individual() })).status).toBe(201);
  });

  it('accepted-then-reset: the payout is written, the answer lost; a retry with the same key replays, no duplicate', async () => {
    const ids = await fundedSetup(world.api);
    await world.sandbox.control.addFault({
      kind: 'accepted_then_reset',
      route: 'POST /v1/virtual-accounts/:id/payout',
    });
    const key = crypto.randomUUID();
    const body = { amount: '42.00', currency: 'USD', recipient_id: ids.recipientId };
    await expect(
      world.api.call('POST', `/v1/virtual-accounts/${ids.vaId}/payout`, { body, idempotencyKey: key }),
    ).rejects.toThrow();
    expect((await world.sandbox.control.counters()).created.payouts).toBe(1);
    const retry = await world.api.call('POST', `/v1/virtual-accounts/${ids.vaId}/payout`, {
      body,
      idempotencyKey: key,
    });
    expect(retry.status).toBe(201);
    expect(retry.body).toMatchObject({ id: expect.any(String), status: 'created', amount: '42.00' });
    const counters = await world.sandbox.control.counters();
    expect(counters.created.payouts).toBe(1);
    expect(counters.idempotentReplays).toBe(1);
    expect(counters.requests['POST /v1/virtual-accounts/:id/payout']).toBe(2);
    const list = await world.api.call('GET', `/v1/payouts?user_id=${ids.userId}`);
    expect(list.body.total).toBe(1);
  });

  it('accepted-then-stall: the payout is written at once, its answer held; a replay of the key meanwhile gets it', async () => {
    const ids = await fundedSetup(world.api);
    await world.sandbox.control.addFault({
      kind: 'accepted_then_stall',
      route: 'POST /v1/virtual-accounts/:id/payout',
      latencyMs: 3000,
    });
    const key = crypto.randomUUID();
    const body = { amount: '43.00', currency: 'USD', recipient_id: ids.recipientId };
    const started = Date.now();
    const held = world.api.call('POST', `/v1/virtual-accounts/${ids.vaId}/payout`, {
      body,
      idempotencyKey: key,
    });
    // Written before the answer: the partner holds a payout its caller has not heard of yet.
    // Seen within 2 s, a second of slack for a loaded machine and still a second before the answer.
    while ((await world.sandbox.control.counters()).created.payouts === 0 && Date.now() - started < 2000)
      await new Promise((r) => setTimeout(r, 10));
    expect((await world.sandbox.control.counters()).created.payouts).toBe(1);
    expect(Date.now() - started).toBeLessThan(2000);
    const replay = await world.api.call('POST', `/v1/virtual-accounts/${ids.vaId}/payout`, {
      body,
      idempotencyKey: key,
    });
    expect(replay.status).toBe(201);
    const answer = await held;
    expect(Date.now() - started).toBeGreaterThanOrEqual(2950);
    expect(answer.status).toBe(201);
    expect(answer.body.id).toBe(replay.body.id);
    expect((await world.sandbox.control.counters()).created.payouts).toBe(1);
  });

  it('clearFaults disarms everything; unknown kinds are refused', async () => {
    await world.sandbox.control.addFault({ kind: 'server_error', times: 5 });
    await world.sandbox.control.clearFaults();
    expect(await world.sandbox.control.faults()).toEqual([]);
    expect((await world.api.call('GET', '/v1/users')).status).toBe(200);
    await expect(world.sandbox.control.addFault({ kind: 'meteor' as never })).rejects.toThrow(
      'unknown fault kind',
    );
  });
});

describe('sandbox: rate limit, on by default (evidence §1 [T1 REVISION-DOCS §3.3]: 20/s, burst 50)', () => {
  it('rateLimit: false turns it off (a convenience the partner lacks)', async () => {
    const sandbox = await startPartnerSandbox({ rateLimit: false });
    try {
      const api = await new Api(sandbox.sandboxBaseUrl, sandbox.credentials).login();
      const statuses = await Promise.all(
        Array.from({ length: 60 }, () => api.call('GET', '/v1/users').then((a) => a.status)),
      );
      expect(statuses.every((s) => s === 200)).toBe(true);
    } finally {
      await sandbox.close();
    }
  });

  it('answers 429 with Retry-After above the burst, per account', async () => {
    // A token every 10 s: a stall of the process between the calls refills none (at 1/s, one did).
    const sandbox = await startPartnerSandbox({ rateLimit: { perSecond: 0.1, burst: 3 } });
    try {
      const api = await new Api(sandbox.sandboxBaseUrl, sandbox.credentials).login();
      const answers = [];
      for (let i = 0; i < 3; i++) answers.push(await api.call('GET', '/v1/users'));
      expect(answers.map((a) => a.status)).toEqual([200, 200, 429]);
      expect(Number(answers[2].headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
      const other = await sandbox.control.createClient();
      expect(
        (
          await new Api(sandbox.sandboxBaseUrl, other).call('POST', '/auth', {
            body: { client_id: other.clientId, password: other.password },
            auth: false,
          })
        ).status,
      ).toBe(200);
    } finally {
      await sandbox.close();
    }
  });

  // evidence §1 [T1 REVISION-DOCS §3.3]: the partner limits every account, so the sandbox does by
  // default (it did only with rateLimit: true, letting a bursting app pass here and fail there).
  it('by default (as with rateLimit: true) 20/s with a burst of 50', async () => {
    const sandbox = await startPartnerSandbox();
    try {
      const api = new Api(sandbox.sandboxBaseUrl, sandbox.credentials);
      const started = Date.now();
      const statuses = await Promise.all(
        Array.from({ length: 100 }, () => api.call('GET', '/v1/users').then((a) => a.status)),
      );
      const elapsedSeconds = (Date.now() - started) / 1000;
      const passed = statuses.filter((s) => s !== 429).length;
      // A burst of 50, refilled at 20 per second while the 100 requests arrive.
      expect(passed).toBeGreaterThanOrEqual(50);
      expect(passed).toBeLessThanOrEqual(50 + Math.ceil(20 * elapsedSeconds) + 1);
      expect(statuses.filter((s) => s === 429).length).toBeGreaterThan(0);
    } finally {
      await sandbox.close();
    }
  });
});
