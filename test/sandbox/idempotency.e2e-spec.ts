import { startPartnerSandbox } from '@partner-payments/testing';
import { Api, individual, startWorld, stopWorld, wireRecipient, type World } from './sandbox.fixture';
import { fundedSetup } from './funded-setup.fixture';

/**
 * Idempotency-Key on every de-duplicating route (spec 4.7, 8; evidence §4 [T3r DRIFT-34, 35, 36]):
 * required (400 Zod shape without it), the same key and body answer the original (201) and create
 * nothing, the same key with another body is 409 IDEMPOTENCY_CONFLICT in the typed shape.
 */
describe('sandbox: Idempotency-Key on every de-duplicating route', () => {
  let world: World;
  let ids: { userId: string; recipientId: string; vaId: string };
  beforeEach(async () => {
    world = await startWorld();
    ids = await fundedSetup(world.api);
  });
  afterEach(() => stopWorld(world));

  type Route = {
    name: string;
    path: () => string;
    kind: 'users' | 'recipients' | 'virtual_accounts' | 'payouts';
    body: (variant: number) => Record<string, unknown>;
  };
  const routes: Route[] = [
    {
      name: 'POST /v1/users',
      path: () => '/v1/users',
      kind: 'users',
      body: (v) => ({ ...individual({ first_name: `Ada${v}` }) }),
    },
    {
      name: 'POST /v1/recipients',
      path: () => '/v1/recipients',
      kind: 'recipients',
      body: (v) => wireRecipient(ids.userId, { first_name: `Bob${v}` }),
    },
    {
      name: 'POST /v1/virtual-accounts',
      path: () => '/v1/virtual-accounts',
      kind: 'virtual_accounts',
      body: (v) => ({ user_id: ids.userId, type: 'US_BANK', bank: v === 1 ? 'bank_b' : 'bank_c' }),
    },
    {
      name: 'POST /v1/virtual-accounts/{id}/payout',
      path: () => `/v1/virtual-accounts/${ids.vaId}/payout`,
      kind: 'payouts',
      body: (v) => ({ amount: `${v}.00`, currency: 'USD', recipient_id: ids.recipientId }),
    },
  ];

  it.each(routes.map((r) => [r.name, r] as const))(
    '%s: same key and body → the original 201; another body → 409 IDEMPOTENCY_CONFLICT; nothing created twice',
    async (_name, route) => {
      const created = async () => (await world.sandbox.control.counters()).created[route.kind];
      const before = await created();
      const key = crypto.randomUUID();
      const first = await world.api.call('POST', route.path(), { body: route.body(1), idempotencyKey: key });
      expect(first.status).toBe(201);
      // the same JSON with other whitespace is the same body
      const replay = await world.api.call('POST', route.path(), {
        rawBody: JSON.stringify(route.body(1), null, 2),
        headers: { 'content-type': 'application/json' },
        idempotencyKey: key,
      });
      expect(replay.status).toBe(201);
      expect(replay.body).toEqual(first.body);
      const conflict = await world.api.call('POST', route.path(), {
        body: route.body(2),
        idempotencyKey: key,
      });
      expect(conflict.status).toBe(409);
      expect(conflict.body).toEqual({
        error: {
          code: 'IDEMPOTENCY_CONFLICT',
          message: expect.stringMatching(/different request body/),
          details: {},
        },
      });
      expect(await created()).toBe(before + 1);
      const counters = await world.sandbox.control.counters();
      expect(counters.idempotentReplays).toBe(1);
      expect(counters.idempotencyKeyReuses).toBe(1);
      // the key still answers the original body afterwards
      const again = await world.api.call('POST', route.path(), { body: route.body(1), idempotencyKey: key });
      expect(again.body).toEqual(first.body);
    },
  );

  it.each(routes.map((r) => [r.name, r] as const))(
    '%s: no key or a key that is not a UUID v4 → 400 in the Zod shape, nothing created',
    async (_name, route) => {
      const before = (await world.sandbox.control.counters()).created[route.kind];
      for (const idempotencyKey of [false, 'order-42'] as const) {
        const answer = await world.api.call('POST', route.path(), { body: route.body(1), idempotencyKey });
        expect(answer.status).toBe(400);
        expect(answer.body).toEqual({
          error: 'Invalid request data',
          details: [{ path: 'idempotency-key', message: expect.any(String), code: expect.any(String) }],
        });
      }
      expect((await world.sandbox.control.counters()).created[route.kind]).toBe(before);
    },
  );

  it('keys are scoped by route and by account: the same key elsewhere is a new request', async () => {
    const key = crypto.randomUUID();
    const user = await world.api.call('POST', '/v1/users', { body: individual(), idempotencyKey: key });
    const recipient = await world.api.call('POST', '/v1/recipients', {
      body: wireRecipient(ids.userId),
      idempotencyKey: key,
    });
    const other = await new Api(
      world.sandbox.sandboxBaseUrl,
      await world.sandbox.control.createClient(),
    ).login();
    const otherUser = await other.call('POST', '/v1/users', {
      body: individual({ first_name: 'Eve' }),
      idempotencyKey: key,
    });
    expect([user.status, recipient.status, otherUser.status]).toEqual([201, 201, 201]);
    expect(otherUser.body).not.toEqual(user.body);
  });

  it('a refused request stores nothing under its key: the corrected body then succeeds', async () => {
    const key = crypto.randomUUID();
    const bad = await world.api.call('POST', '/v1/recipients', {
      body: wireRecipient(ids.userId, { email: undefined }),
      idempotencyKey: key,
    });
    expect(bad.status).toBe(400);
    const good = await world.api.call('POST', '/v1/recipients', {
      body: wireRecipient(ids.userId),
      idempotencyKey: key,
    });
    expect(good.status).toBe(201);
  });
});

/**
 * A key lives 24 h at the partner (evidence §11 N40, its older readme docs): after that the same key
 * and body are a new request. `idempotencyKeyTtlMs` shortens the life so a test can see it.
 */
describe('sandbox: an Idempotency-Key is forgotten after its life (evidence §11 N40)', () => {
  it('after idempotencyKeyTtlMs the same key and body make a second user; within it they replay', async () => {
    const world = await startWorld({ idempotencyKeyTtlMs: 100 });
    try {
      const key = crypto.randomUUID();
      const first = await world.api.call('POST', '/v1/users', { body: individual(), idempotencyKey: key });
      await new Promise((resolve) => setTimeout(resolve, 400));
      const late = await world.api.call('POST', '/v1/users', { body: individual(), idempotencyKey: key });
      expect([first.status, late.status]).toEqual([201, 201]);
      expect(late.body.id).not.toBe(first.body.id);
      expect((await world.sandbox.control.counters()).created.users).toBe(2);
    } finally {
      await stopWorld(world);
    }
    // The default life is a day: a replay a moment later answers the first user (the suite above).
    const day = await startWorld();
    try {
      const key = crypto.randomUUID();
      const first = await day.api.call('POST', '/v1/users', { body: individual(), idempotencyKey: key });
      await new Promise((resolve) => setTimeout(resolve, 400));
      const again = await day.api.call('POST', '/v1/users', { body: individual(), idempotencyKey: key });
      expect(again.body.id).toBe(first.body.id);
    } finally {
      await stopWorld(day);
    }
  });

  it('refuses a life that is not a positive number of milliseconds, naming the option', async () => {
    await expect(startPartnerSandbox({ idempotencyKeyTtlMs: 0 })).rejects.toThrow(
      'idempotencyKeyTtlMs must be a number of milliseconds above 0, got 0',
    );
  });
});
