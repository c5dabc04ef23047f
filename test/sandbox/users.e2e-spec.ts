import { Api, individual, startWorld, stopWorld, type World } from './sandbox.helpers';

describe('sandbox: users (provider-facts Users, spec 3.3)', () => {
  let world: World;
  beforeEach(
    async () => (world = await startWorld({ defaultUserMetadata: { tenant: 'acme', tier: 'default' } })),
  );
  afterEach(() => stopWorld(world));

  it('creates a user: flat answer with user_id, defaults merged into metadata (request keys win), user.created echoes it', async () => {
    const answer = await world.api.call('POST', '/v1/users', {
      body: individual({ metadata: { tier: 'gold' } }),
    });
    expect(answer.status).toBe(201);
    expect(answer.body).toMatchObject({
      user_id: expect.any(String),
      type: 'individual',
      first_name: 'Ada',
      metadata: { tenant: 'acme', tier: 'gold' },
    });
    expect(answer.body).not.toHaveProperty('data');
    await world.sandbox.control.flushWebhooks();
    const created = world.receiver.events('user.created');
    expect(created).toHaveLength(1);
    expect(created[0].body.data).toMatchObject({
      user_id: answer.body.user_id,
      metadata: { tenant: 'acme', tier: 'gold' },
    });
  });

  it('verification approved by default: VERIFIED, user.status_changed + user.verification.accepted, no metadata on them', async () => {
    const { body } = await world.api.call('POST', '/v1/users', { body: individual() });
    const read = await world.api.call('GET', `/v1/users/${body.user_id}`);
    expect(read.body.status).toBe('VERIFIED');
    await world.sandbox.control.flushWebhooks();
    expect(world.receiver.events('user.verification.accepted')).toHaveLength(1);
    const changes = world.receiver
      .events('user.status_changed')
      .map((e) => [e.body.data.previous_status, e.body.data.new_status]);
    expect(changes).toEqual([
      ['CREATED', 'VERIFYING'],
      ['VERIFYING', 'VERIFIED'],
    ]);
    for (const e of world.receiver.received.filter((r) => r.body.event !== 'user.created'))
      expect(e.body.data).not.toHaveProperty('metadata');
  });

  it('a missing source_of_funds is declined: REJECTED and user.verification.failed with reasons', async () => {
    const { body } = await world.api.call('POST', '/v1/users', {
      body: individual({ source_of_funds: undefined }),
    });
    expect((await world.api.call('GET', `/v1/users/${body.user_id}`)).body.status).toBe('REJECTED');
    await world.sandbox.control.flushWebhooks();
    const failed = world.receiver.events('user.verification.failed');
    expect(failed).toHaveLength(1);
    expect(failed[0].body.data).toMatchObject({
      user_id: body.user_id,
      reasons: [expect.stringContaining('source_of_funds')],
    });
    await expect(world.sandbox.control.setUserVerificationOutcome(body.user_id, 'approved')).rejects.toThrow(
      'terminal',
    );
  });

  it('a provider outage keeps VERIFYING and sends no failure event (spec 3.3, 6.4.9); a later approval resolves it', async () => {
    const { body } = await world.api.call('POST', '/v1/users', {
      body: individual({ email: 'ada+provider_outage@example.com' }),
    });
    expect((await world.api.call('GET', `/v1/users/${body.user_id}`)).body.status).toBe('VERIFYING');
    await world.sandbox.control.flushWebhooks();
    expect(world.receiver.events('user.verification.failed')).toHaveLength(0);
    expect(await world.sandbox.control.setUserVerificationOutcome(body.user_id, 'provider_outage')).toBe(
      'VERIFYING',
    );
    expect(await world.sandbox.control.setUserVerificationOutcome(body.user_id, 'approved')).toBe('VERIFIED');
    await world.sandbox.control.flushWebhooks();
    expect(world.receiver.events('user.verification.failed')).toHaveLength(0);
    expect(world.receiver.events('user.verification.accepted')).toHaveLength(1);
  });

  it('outcomes can also be driven by metadata and by the control API for the next user', async () => {
    const meta = await world.api.call('POST', '/v1/users', {
      body: individual({ metadata: { sandbox_verification: 'declined' } }),
    });
    expect((await world.api.call('GET', `/v1/users/${meta.body.user_id}`)).body.status).toBe('REJECTED');
    await world.sandbox.control.setNextVerificationOutcome('session_expired');
    const next = await world.api.call('POST', '/v1/users', { body: individual() });
    expect((await world.api.call('GET', `/v1/users/${next.body.user_id}`)).body.status).toBe('REJECTED');
    await world.sandbox.control.setNextVerificationOutcome(null);
    const normal = await world.api.call('POST', '/v1/users', { body: individual() });
    expect((await world.api.call('GET', `/v1/users/${normal.body.user_id}`)).body.status).toBe('VERIFIED');
  });

  it('reads a body only when it is sent as JSON: a client that forgets Content-Type gets what a JSON API gives it', async () => {
    const body = JSON.stringify(individual());
    // fetch sends a string body as text/plain when no content-type is set.
    const plain = await world.api.call('POST', '/v1/users', { rawBody: body });
    expect(plain.status).toBe(400);
    expect(plain.body.errors).toEqual([{ field: 'body', message: 'must be a JSON object' }]);
    const form = await world.api.call('POST', '/v1/users', {
      rawBody: body,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(form.status).toBe(400);
    const auth = await new Api(world.sandbox.sandboxBaseUrl, world.sandbox.credentials).call(
      'POST',
      '/auth',
      {
        rawBody: JSON.stringify({
          client_id: world.sandbox.credentials.clientId,
          password: world.sandbox.credentials.password,
        }),
        auth: false,
      },
    );
    expect(auth.status).toBe(401);
    expect((await world.sandbox.control.counters()).created.users).toBe(0);
    for (const type of ['application/json; charset=utf-8', 'application/merge-patch+json']) {
      const ok = await world.api.call('POST', '/v1/users', {
        rawBody: body,
        headers: { 'content-type': type },
      });
      expect(ok.status).toBe(201);
    }
  });

  it('validation errors name the field; metadata rules of spec 8 apply', async () => {
    const noType = await world.api.call('POST', '/v1/users', { body: { first_name: 'A' } });
    expect(noType.status).toBe(400);
    expect(noType.body).toMatchObject({
      code: 'validation_error',
      errors: expect.arrayContaining([{ field: 'type', message: expect.any(String) }]),
    });
    const business = await world.api.call('POST', '/v1/users', { body: { type: 'business' } });
    expect(business.body.errors.map((e: { field: string }) => e.field)).toContain('business_legal_name');
    const meta = await world.api.call('POST', '/v1/users', {
      body: individual({ metadata: { 'bad[key]': 'v' } }),
    });
    expect(meta.status).toBe(400);
    expect(meta.body.errors[0].field).toBe('metadata.bad[key]');
    expect((await world.sandbox.control.counters()).created.users).toBe(0);
  });

  it('Idempotency-Key is required (UUID v4) and a replay answers the original user without creating one', async () => {
    const missing = await world.api.call('POST', '/v1/users', { body: individual(), idempotencyKey: false });
    expect(missing.status).toBe(400);
    expect(missing.body.details[0].path).toBe('Idempotency-Key');
    const notV4 = await world.api.call('POST', '/v1/users', { body: individual(), idempotencyKey: 'abc' });
    expect(notV4.status).toBe(400);
    const key = crypto.randomUUID();
    const first = await world.api.call('POST', '/v1/users', { body: individual(), idempotencyKey: key });
    const replay = await world.api.call('POST', '/v1/users', { body: individual(), idempotencyKey: key });
    expect(replay.status).toBe(201);
    expect(replay.body).toEqual(first.body);
    const counters = await world.sandbox.control.counters();
    expect(counters.created.users).toBe(1);
    expect(counters.idempotentReplays).toBe(1);
  });

  it('lists with offset paging { data, pagination }; limit above 100 is a bare 500', async () => {
    for (let i = 0; i < 3; i++)
      await world.api.call('POST', '/v1/users', { body: individual({ first_name: `U${i}` }) });
    const page = await world.api.call('GET', '/v1/users?limit=2&offset=0');
    expect(page.body.data.map((u: { first_name: string }) => u.first_name)).toEqual(['U0', 'U1']);
    expect(page.body.pagination).toEqual({ total: 3, limit: 2, offset: 0, has_more: true });
    const last = await world.api.call('GET', '/v1/users?limit=2&offset=2');
    expect(last.body.pagination).toEqual({ total: 3, limit: 2, offset: 2, has_more: false });
    const tooMany = await world.api.call('GET', '/v1/users?limit=101');
    expect(tooMany.status).toBe(500);
    expect(tooMany.text).toBe('Internal Server Error');
    expect((await world.api.call('GET', '/v1/users?limit=100')).status).toBe(200);
    expect((await world.api.call('GET', '/v1/users?offset=-1')).status).toBe(400);
  });

  it('GET and PUT by id; another client’s or a missing user is 404; user.updated carries no metadata', async () => {
    const { body } = await world.api.call('POST', '/v1/users', { body: individual() });
    const put = await world.api.call('PUT', `/v1/users/${body.user_id}`, {
      body: { last_name: 'Byron', metadata: { a: '1' } },
    });
    expect(put.status).toBe(200);
    expect(put.body).toMatchObject({ user_id: body.user_id, last_name: 'Byron', metadata: { a: '1' } });
    expect((await world.api.call('GET', `/v1/users/${body.user_id}`)).body.last_name).toBe('Byron');
    expect(
      (await world.api.call('PUT', `/v1/users/${body.user_id}`, { body: { type: 'business' } })).status,
    ).toBe(400);
    expect((await world.api.call('GET', `/v1/users/${crypto.randomUUID()}`)).status).toBe(404);
    const other = await world.sandbox.control.createClient();
    const otherApi = await new Api(world.sandbox.sandboxBaseUrl, other).login();
    const foreign = await otherApi.call('GET', `/v1/users/${body.user_id}`);
    expect(foreign.status).toBe(404);
    expect(foreign.body.code).toBe('not_found');
    await world.sandbox.control.flushWebhooks();
    const updated = world.receiver.events('user.updated');
    expect(updated).toHaveLength(1);
    expect(updated[0].body.data).not.toHaveProperty('metadata');
  });

  it('liveness link: one entry per beneficial owner with a provider reference; user.liveness_completed carries it (6.4.2)', async () => {
    const { body } = await world.api.call('POST', '/v1/users', {
      body: {
        type: 'business',
        business_legal_name: 'Acme LLC',
        source_of_funds: 'business_income',
        associated_persons: [
          { first_name: 'Owner', last_name: 'One', is_beneficial_owner: true },
          { first_name: 'Owner', last_name: 'Two', is_beneficial_owner: true },
          { first_name: 'Just', last_name: 'Director', is_beneficial_owner: false },
        ],
      },
    });
    const links = await world.api.call('POST', `/v1/users/${body.user_id}/liveness-link`);
    expect(links.status).toBe(201);
    expect(links.body.links).toHaveLength(2);
    const refs = links.body.links.map((l: { person_reference_id: string }) => l.person_reference_id);
    expect(new Set(refs).size).toBe(2);
    for (const l of links.body.links)
      expect(l).toMatchObject({
        person_id: expect.any(String),
        person_reference_id: expect.stringMatching(/^ref_/),
        liveness_url: expect.stringMatching(/^https:/),
      });
    await world.sandbox.control.completeLiveness(body.user_id, { personReferenceId: refs[1] });
    await expect(
      world.sandbox.control.completeLiveness(body.user_id, { personReferenceId: 'ref_unknown' }),
    ).rejects.toThrow();

    const person = await world.api.call('POST', '/v1/users', { body: individual() });
    const single = await world.api.call('POST', `/v1/users/${person.body.user_id}/liveness-link`);
    expect(single.body.links).toEqual([
      expect.objectContaining({ person_id: null, person_reference_id: null }),
    ]);
    await world.sandbox.control.completeLiveness(person.body.user_id);
    await world.sandbox.control.flushWebhooks();
    const done = world.receiver.events('user.liveness_completed').map((e) => e.body.data);
    expect(done).toEqual([
      expect.objectContaining({ user_id: body.user_id, person_reference_id: refs[1], result: 'passed' }),
      expect.objectContaining({ user_id: person.body.user_id, person_reference_id: null }),
    ]);
    for (const d of done) expect(d).not.toHaveProperty('metadata');
  });
});
