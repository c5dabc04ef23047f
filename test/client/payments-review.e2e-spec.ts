/**
 * Adversarial payments checks against the sandbox (real socket): duplicate writes, secrets in
 * errors, validation before any I/O.
 */
import { inspect } from 'node:util';
import { PartnerLocalValidationError } from '@partner-payments/nestjs';
import {
  PartnerAuthenticationError,
  PartnerConnectionError,
  PartnerServerError,
} from '@partner-payments/nestjs/errors';
import { samplePdf } from '../../libs/partner-payments/src/resources/rfis/upload/sample-files.fixture';
import {
  fundedSetup,
  individual,
  startClientWorld,
  stopClientWorld,
  type ClientWorld,
} from './client.fixture';

const UPLOAD = 'POST /v1/rfis/:id/items/:id/documents';

describe('payments review: duplicates, secrets, validation before I/O (sandbox)', () => {
  let world: ClientWorld;
  beforeEach(async () => {
    world = await startClientWorld({}, { rateLimit: false });
  });
  afterEach(() => stopClientWorld(world));
  const client = () => world.graph.client;
  const count = async (route: string) => (await world.sandbox.control.counters()).requests[route] ?? 0;

  const seed = async () => {
    const user = await client().users.create(individual());
    return world.sandbox.control.seedRfi({ userId: user.userId });
  };

  it('a payout create that times out is retried with the same key: one payout, the retry a replay', async () => {
    const ids = await fundedSetup(world);
    const route = 'POST /v1/virtual-accounts/:id/payout';
    // The first attempt outlives the 1 s per-call timeout; the retry, with no fault, stays well inside it.
    await world.sandbox.control.addFault({ kind: 'latency', route, latencyMs: 1500, times: 1 });
    let meta: { idempotencyKey: string | null; attempts: number } | undefined;
    const payout = await client().payouts.create(
      ids.vaId,
      { amount: '25.00', currency: 'USD', recipient_id: ids.recipientId },
      { timeoutMs: 1000, onMeta: (m) => (meta = m) },
    );
    expect(payout.status).toBe('CREATED');
    expect(meta?.attempts).toBe(2);
    await new Promise((r) => setTimeout(r, 1600)); // let the slow first attempt finish on the server
    const counters = await world.sandbox.control.counters();
    expect(counters.created.payouts).toBe(1);
    expect(counters.idempotentReplays).toBe(1);
    const keys = (await world.sandbox.control.requestLog())
      .filter((e) => e.route === route)
      .map((e) => e.headers['idempotency-key']);
    expect(keys).toEqual([meta?.idempotencyKey, meta?.idempotencyKey]);
  });

  it('a caller Idempotency-Key on an upload does not make a lost answer retryable: one file stored, not two', async () => {
    const seeded = await seed();
    const docId = seeded.itemIdsByType.document as string;
    await world.sandbox.control.addFault({ kind: 'accepted_then_reset', route: UPLOAD, times: 1 });
    const err = await client()
      .rfis.uploadDocuments(
        seeded.rfiId,
        docId,
        [{ buffer: samplePdf(), fileName: 'a.pdf', contentType: 'application/pdf' }],
        { idempotencyKey: '6f1d8c1e-4d2b-4c1a-9f0e-1a2b3c4d5e6f' },
      )
      .catch((e: unknown) => e);
    // The upload route de-duplicates nothing (spec 4.2 has no Idempotency-Key): a replay adds a file.
    expect(err).toBeInstanceOf(PartnerConnectionError);
    expect(await count(UPLOAD)).toBe(1);
    const item = (await client().rfis.get(seeded.rfiId)).items.find((i) => i.item_id === docId);
    expect(item?.documents).toHaveLength(1);
  });

  it('a caller Idempotency-Key on a PATCH of answers does not make a 5xx retryable', async () => {
    const seeded = await seed();
    const shortId = seeded.itemIdsByType.text_short as string;
    await world.sandbox.control.addFault({
      kind: 'server_error',
      route: 'PATCH /v1/rfis/:id/items',
      times: 1,
    });
    await expect(
      client().rfis.answerItems(seeded.rfiId, [{ item_id: shortId, answer_value: 'A' }], {
        idempotencyKey: '0d1e2f3a-4b5c-4d6e-8f70-8192a3b4c5d6',
      }),
    ).rejects.toBeInstanceOf(PartnerServerError);
    expect(await count('PATCH /v1/rfis/:id/items')).toBe(1);
  });

  it('a caller Idempotency-Key on PUT /v1/users does not make a lost answer retryable', async () => {
    const user = await client().users.create(individual());
    await world.sandbox.control.addFault({ kind: 'accepted_then_reset', route: 'PUT /v1/users/:id' });
    await expect(
      client().users.update(
        user.userId,
        { email: 'new@example.com' },
        { idempotencyKey: 'a3c1e5f7-1b2d-4e6f-8a9b-0c1d2e3f4a5b' },
      ),
    ).rejects.toBeInstanceOf(PartnerConnectionError);
    expect(await count('PUT /v1/users/:id')).toBe(1);
  });

  it('a connection error never carries the bearer token or api key, however deeply it is inspected', async () => {
    const token = await world.graph.tokens.getToken();
    await world.sandbox.control.addFault({ kind: 'accepted_then_reset', route: 'PUT /v1/users/:id' });
    const user = await client().users.create(individual());
    const err = await client()
      .users.update(user.userId, { email: 'y@example.com' })
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(PartnerConnectionError);
    const e = err as PartnerConnectionError;
    const dumps = [
      inspect(e, { depth: Infinity, showHidden: true }),
      inspect(e.cause, { depth: Infinity, showHidden: true }),
      JSON.stringify(e),
      String(e.stack),
    ].join('\n');
    expect(dumps).not.toContain(token);
    expect(dumps).not.toContain(world.sandbox.credentials.apiKey);
    expect(dumps).not.toContain(world.sandbox.credentials.password);
    // the cause still says what happened
    expect((e.cause as { code?: string } | undefined)?.code).toBe(e.code.toUpperCase());
  });

  it('an expired token on a PATCH of answers: one re-auth, one re-send, the answer recorded once', async () => {
    const seeded = await seed();
    const shortId = seeded.itemIdsByType.text_short as string;
    await world.sandbox.control.expireTokensNow();
    const authBefore = (await world.sandbox.control.counters()).authCalls;
    const items = await client().rfis.answerItems(seeded.rfiId, [{ item_id: shortId, answer_value: 'A' }]);
    expect(items.map((i) => [i.item_id, i.answer_value])).toEqual([[shortId, 'A']]);
    const statuses = (await world.sandbox.control.requestLog())
      .filter((e) => e.route === 'PATCH /v1/rfis/:id/items')
      .map((e) => e.status);
    expect(statuses).toEqual([401, 200]);
    expect((await world.sandbox.control.counters()).authCalls).toBe(authBefore + 1);
  });

  it('a refresh that fails because the partner is down surfaces the partner unavailable (PartnerServerError, retryable), not a credential error; the next call authenticates afresh', async () => {
    await client().users.list({ limit: 1 });
    await world.sandbox.control.expireTokensNow();
    // maxRetries 2: three 502s on POST /auth exhaust the refresh
    await world.sandbox.control.addFault({
      kind: 'server_error',
      route: 'POST /auth',
      times: 3,
      status: 502,
    });
    const err = await client()
      .users.list({ limit: 1 })
      .catch((e: unknown) => e);
    // A 5xx on /auth is the partner unavailable, not our credentials refused.
    expect(err).toBeInstanceOf(PartnerServerError);
    expect(err).not.toBeInstanceOf(PartnerAuthenticationError);
    expect(world.graph.tokens.expiresAt).toBeNull();
    await expect(client().users.list({ limit: 1 })).resolves.toMatchObject({ data: [] });
    // 1 first + 3 refused by the fault + 1 fresh (faulted requests never reach the auth handler)
    const auths = (await world.sandbox.control.requestLog()).filter((e) => e.route === 'POST /auth');
    expect(auths.map((e) => e.status)).toEqual([200, 502, 502, 502, 200]);
  });

  it('a proactive refresh that fails while the token in hand is still valid keeps the call going on that token', async () => {
    // Token lifetime 4 s, skew 3 s (capped at half the lifetime: 2 s): after ~2 s the client refreshes
    // early while the partner still accepts the token for ~2 s more.
    await stopClientWorld(world);
    world = await startClientWorld({ tokenTtlSeconds: 4 }, { rateLimit: false, tokenRefreshSkewSeconds: 3 });
    await client().users.list({ limit: 1 });
    await new Promise((r) => setTimeout(r, 2300));
    // maxRetries 2: three 503s on POST /auth exhaust the early refresh
    await world.sandbox.control.addFault({ kind: 'server_error', route: 'POST /auth', times: 3 });
    // A blip on /auth is no reason to fail a call (a payout create) the partner would accept.
    await expect(client().users.list({ limit: 1 })).resolves.toMatchObject({ data: [] });
    // The call goes out on the held token while the refresh runs in the background (its three
    // attempts may land before or after it), so the order after the first two is not fixed.
    let log: string[] = [];
    for (let i = 0; i < 100 && log.filter((e) => e === 'POST /auth 503').length < 3; i++) {
      if (i > 0) await new Promise((r) => setTimeout(r, 20));
      log = (await world.sandbox.control.requestLog()).map((e) => `${e.route} ${e.status}`);
    }
    expect(log.slice(0, 2)).toEqual(['POST /auth 200', 'GET /v1/users 200']);
    expect(log.slice(2).sort()).toEqual([
      'GET /v1/users 200',
      'POST /auth 503',
      'POST /auth 503',
      'POST /auth 503',
    ]);
    // Once the token has really expired, nothing is kept: the next call authenticates afresh.
    await new Promise((r) => setTimeout(r, 1900));
    await expect(client().users.list({ limit: 1 })).resolves.toMatchObject({ data: [] });
    const last = (await world.sandbox.control.requestLog()).slice(-2).map((e) => `${e.route} ${e.status}`);
    expect(last).toEqual(['POST /auth 200', 'GET /v1/users 200']);
  });

  it('local validation sends nothing at all: the request log stays empty (no /auth either)', async () => {
    const userId = '7a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d';
    const attempts: Array<[string, () => Promise<unknown>]> = [
      [
        'metadata["bad[key]"]',
        () => client().users.create({ ...individual(), metadata: { 'bad[key]': 'x' } }),
      ],
      ['limit', () => client().users.list({ limit: 101 })],
      ['items', () => client().rfis.answerItems(userId, [])],
      ['metadata', () => client().recipients.list(userId, { metadata: { ['k'.repeat(41)]: 'v' } })],
      ['files', () => client().rfis.uploadDocuments(userId, userId, [])],
      // GET /v1/payouts/.. would resolve to GET /v1: refused, not sent somewhere else
      ['payoutId', () => client().payouts.get('..')],
      // The partner takes at most 2 decimals (evidence §6 [T3r DRIFT-41]); "25.005" is not 25.00 or 25.01.
      [
        'amount',
        () => client().payouts.create(userId, { amount: '25.005', currency: 'USD', recipient_id: userId }),
      ],
    ];
    for (const [field, call] of attempts) {
      const err = await call().catch((e: unknown) => e);
      expect(err).toBeInstanceOf(PartnerLocalValidationError);
      const fields = (err as PartnerLocalValidationError).fieldErrors.map((f) => f.field).join(' ');
      expect(fields).toContain(field);
    }
    expect(await world.sandbox.control.requestLog()).toEqual([]);
    expect((await world.sandbox.control.counters()).authCalls).toBe(0);
  });
});
