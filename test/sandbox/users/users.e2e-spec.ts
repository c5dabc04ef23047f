import { Api, startWorld, stopWorld, type World } from '../sandbox.fixture';
import { biz, ind, zod } from './user-bodies.fixture';

describe('sandbox: users as the partner answers them (evidence §3, spec 3.3)', () => {
  let world: World;
  beforeEach(
    async () => (world = await startWorld({ defaultUserMetadata: { tenant: 'acme', tier: 'default' } })),
  );
  afterEach(() => stopWorld(world));

  it('create: 201 flat with id (no user_id), CREATED, legacy verification_status, eligible_products, verification_triggered, renamed address; defaults merged', async () => {
    const answer = await world.api.call('POST', '/v1/users', {
      body: ind({ metadata: { tier: 'gold' }, external_id: 'crm-1', pep_status: 'no' }),
    });
    expect(answer.status).toBe(201);
    expect(answer.body).toMatchObject({
      id: expect.any(String),
      type: 'individual',
      status: 'CREATED',
      verification_status: 'unverified',
      verification_mode: 'automatic',
      verification_triggered: true,
      external_id: 'crm-1',
      first_name: 'Ada',
      birth_date: '1990-12-10',
      ssn: '123456789', // [T3r README #3]: plain text, as the partner sends it
      residential_address: {
        street_line_1: '1 Main St',
        street_line_2: '', // evidence §11 N21: every key, "" when not on file
        city: 'Austin',
        subdivision: 'TX',
        postal_code: '78701',
        country: 'USA',
      },
      metadata: { tenant: 'acme', tier: 'gold' },
    });
    expect(answer.body).not.toHaveProperty('user_id');
    // evidence §11 C4 [T3raw users/03]: by product code, no general; only ACT still misses fields.
    expect(answer.body.missing_fields).toEqual({
      'usa-virtual-accounts': [],
      'usa-virtual-accounts-act': expect.arrayContaining(['employment_status']),
    });
    expect(answer.body).not.toHaveProperty('address_street');
    expect(answer.body).not.toHaveProperty('pep_status'); // accepted, never returned
    // evidence §11 C3: 13 entries keyed by product_code, product_id an opaque UUID, none eligible.
    expect(answer.body.eligible_products).toHaveLength(13);
    expect(answer.body.eligible_products).toContainEqual({
      product_id: expect.stringMatching(/^[0-9a-f]{8}-[0-9a-f]{4}-/),
      product_code: 'usa-virtual-accounts',
      product_name: 'USA Virtual Accounts',
      eligible: false,
    });
    expect(answer.body.eligible_products.every((p: { eligible: boolean }) => !p.eligible)).toBe(true);
    await world.sandbox.control.flushWebhooks();
    const created = world.receiver.events('user.created');
    expect(created[0].body.data).toMatchObject({
      user_id: answer.body.id,
      metadata: { tenant: 'acme', tier: 'gold' },
    });
  });

  it('PUT is strict: unknown keys, type and external_id → 400 Z and nothing is written; an empty body is a 200 no-op', async () => {
    const { body } = await world.api.call('POST', '/v1/users', { body: ind() });
    const unknown = await world.api.call('PUT', `/v1/users/${body.id}`, {
      body: { registered_address: {}, business_trade_name: 'X', last_name: 'Byron' },
    });
    expect(unknown.status).toBe(400);
    expect(unknown.body).toEqual(
      zod([
        {
          path: '',
          message: "Unrecognized key(s) in object: 'registered_address', 'business_trade_name'",
          code: 'unrecognized_keys',
        },
      ]),
    );
    for (const key of ['type', 'external_id']) {
      const refused = await world.api.call('PUT', `/v1/users/${body.id}`, {
        body: { [key]: 'business', last_name: 'Byron' },
      });
      expect(refused.status).toBe(400);
      expect(refused.body.error).toBe('Invalid request data');
    }
    expect((await world.api.call('GET', `/v1/users/${body.id}`)).body.last_name).toBe('Lovelace');
    const empty = await world.api.call('PUT', `/v1/users/${body.id}`, { body: {} });
    expect(empty.status).toBe(200);
    expect(empty.body).toMatchObject({
      id: body.id,
      updated_fields: [],
      requires_reverification: false,
      verification_triggered: true, // evidence §11 C5: on the PUT answer too, and no warnings
    });
    expect(empty.body).not.toHaveProperty('warnings');
  });

  it('PUT writes only what is sent: updated_fields, requires_reverification for a sensitive change past CREATED, persons matched by email, documents kept', async () => {
    const { body } = await world.api.call('POST', '/v1/users', { body: biz() });
    const put = await world.api.call('PUT', `/v1/users/${body.id}`, {
      body: {
        business_legal_name: 'Acme Holdings LLC',
        doing_business_as: 'Acme',
        metadata: { a: '1' },
        associated_persons: [
          { email: 'OWNER@acme.example', occupation: 'ceo' },
          { email: 'second@acme.example', first_name: 'Second', last_name: 'Owner' },
        ],
        identifying_information: [{ type: 'business_formation' }],
      },
    });
    expect(put.status).toBe(200);
    expect(put.body.updated_fields).toEqual(
      expect.arrayContaining(['business_legal_name', 'doing_business_as', 'metadata', 'associated_persons']),
    );
    expect(put.body.requires_reverification).toBe(true); // the legal name changed on a user in REVIEW
    expect(put.body.registered_address).toMatchObject({ street_line_1: '500 Market St', subdivision: 'CA' });
    expect(put.body.associated_persons).toHaveLength(2);
    expect(put.body.associated_persons[0]).toMatchObject({ first_name: 'Owner', occupation: 'ceo' });
    const docs = put.body.identifying_information[0].documents;
    expect(docs).toEqual([
      expect.objectContaining({
        content_type: 'application/pdf',
        file: expect.stringMatching(/^https:.*X-Amz-Expires=600/),
      }),
    ]);
    expect(put.body.metadata).toEqual({ a: '1' });
    await world.sandbox.control.flushWebhooks();
    expect(world.receiver.events('user.updated')[0].body.data).not.toHaveProperty('metadata');
  });

  it('POST validation answers the partner Zod body naming each path; nothing is created', async () => {
    const cases: Array<[Record<string, unknown>, unknown]> = [
      [{ first_name: 'A' }, { path: 'type', message: 'Required', code: 'invalid_type' }],
      [
        ind({ type: 'person' }),
        {
          path: 'type',
          message: "Invalid enum value. Expected 'individual' | 'business', received 'person'",
          code: 'invalid_enum_value',
        },
      ],
      [
        biz({ business_industry: 'technology' }),
        { path: 'business_industry', message: 'Expected array, received string', code: 'invalid_type' },
      ],
      [
        ind({ metadata: { vip: true } }),
        { path: 'metadata.vip', message: 'Expected string, received boolean', code: 'invalid_type' },
      ],
      [
        ind({ address_country: 'US' }),
        { path: 'address_country', message: 'Country must be a 3-character ISO code', code: 'custom' },
      ],
      [
        ind({ birth_date: '1990-02-30' }),
        { path: 'birth_date', message: 'Invalid date', code: 'invalid_string' },
      ],
      [
        ind({ status: 'VERIFIED' }),
        expect.objectContaining({
          path: 'status',
          code: 'invalid_enum_value',
          message: expect.stringContaining("'active' | 'inactive' | 'suspended'"),
        }),
      ],
      [
        ind({ account_purpose: 'operating_a_company' }),
        expect.objectContaining({ path: 'account_purpose', code: 'invalid_enum_value' }),
      ],
      [
        biz({ account_purpose: 'manage_personal_funds' }),
        expect.objectContaining({ path: 'account_purpose' }),
      ],
      [
        ind({ associated_persons: [{ email: 'nope' }] }),
        { path: 'associated_persons.0.email', message: 'Invalid email', code: 'invalid_string' },
      ],
      [
        ind({ metadata: { k: '😀'.repeat(251) } }),
        { path: 'metadata.k', message: 'String must contain at most 500 character(s)', code: 'too_big' },
      ],
    ];
    for (const [body, issue] of cases) {
      const answer = await world.api.call('POST', '/v1/users', { body });
      expect({ status: answer.status, body: answer.body }).toEqual({ status: 400, body: zod([issue]) });
    }
    expect((await world.api.call('POST', '/v1/users', { body: ind({ status: 'active' }) })).status).toBe(201);
    expect((await world.sandbox.control.counters()).created.users).toBe(1);
  });

  it('metadata: 250 emoji (500 UTF-16 units) pass; the merged map (account defaults + request keys) must hold at most 50 entries', async () => {
    expect(
      (await world.api.call('POST', '/v1/users', { body: ind({ metadata: { k: '😀'.repeat(250) } }) }))
        .status,
    ).toBe(201);
    const fortyNine = Object.fromEntries(Array.from({ length: 48 }, (_, i) => [`k${i}`, 'v']));
    // 48 own keys + the 2 account defaults = 50: the limit
    expect((await world.api.call('POST', '/v1/users', { body: ind({ metadata: fortyNine }) })).status).toBe(
      201,
    );
    const fifty = Object.fromEntries(Array.from({ length: 50 }, (_, i) => [`k${i}`, 'v']));
    const over = await world.api.call('POST', '/v1/users', { body: ind({ metadata: fifty }) });
    expect(over.status).toBe(400);
    expect(over.body.details).toEqual([
      {
        path: 'metadata',
        message: expect.stringMatching(/at most 50 entries once the account's 2 default keys are merged/),
        code: 'custom',
      },
    ]);
    expect((await world.sandbox.control.counters()).created.users).toBe(2);
  });

  it('GET by id: malformed → 400 Z on user_id, unknown or another client’s → 404 flat naming the id (N10, N11)', async () => {
    const { body } = await world.api.call('POST', '/v1/users', { body: ind() });
    const malformed = await world.api.call('GET', '/v1/users/not-a-uuid');
    expect(malformed.status).toBe(400);
    expect(malformed.body).toEqual(
      zod([{ path: 'user_id', message: 'Invalid user ID format', code: 'invalid_string' }]),
    );
    const unknownId = crypto.randomUUID();
    const unknown = await world.api.call('GET', `/v1/users/${unknownId}`);
    expect({ status: unknown.status, body: unknown.body }).toEqual({
      status: 404,
      body: { code: 'not_found', message: `User with ID ${unknownId} not found` },
    });
    const other = await world.sandbox.control.createClient();
    const otherApi = await new Api(world.sandbox.sandboxBaseUrl, other).login();
    const foreign = await otherApi.call('GET', `/v1/users/${body.id}`);
    // N14: another client's user answers exactly as a missing one.
    expect({ status: foreign.status, body: foreign.body }).toEqual({
      status: 404,
      body: { code: 'not_found', message: `User with ID ${body.id} not found` },
    });
    expect((await otherApi.call('PUT', `/v1/users/${body.id}`, { body: {} })).status).toBe(404);
  });

  it('Idempotency-Key is required on create (UUID v4) and a replay answers the original user', async () => {
    const missing = await world.api.call('POST', '/v1/users', { body: ind(), idempotencyKey: false });
    expect(missing.status).toBe(400);
    const key = crypto.randomUUID();
    const first = await world.api.call('POST', '/v1/users', { body: ind(), idempotencyKey: key });
    const replay = await world.api.call('POST', '/v1/users', { body: ind(), idempotencyKey: key });
    expect(replay.status).toBe(201);
    expect(replay.body).toEqual(first.body);
    expect((await world.sandbox.control.counters()).created.users).toBe(1);
  });

  it("lists with offset paging { data, pagination } of read views (id, missing_fields); limit above 100 is a 500 in the partner's shape I { status: 'error', message }", async () => {
    for (let i = 0; i < 3; i++)
      await world.api.call('POST', '/v1/users', { body: ind({ first_name: `U${i}` }) });
    const page = await world.api.call('GET', '/v1/users?limit=2&offset=0');
    expect(page.body.data.map((u: { first_name: string }) => u.first_name)).toEqual(['U0', 'U1']);
    expect(page.body.data[0]).toMatchObject({ id: expect.any(String), missing_fields: expect.any(Object) });
    expect(page.body.pagination).toEqual({ total: 3, limit: 2, offset: 0, has_more: true });
    const tooMany = await world.api.call('GET', '/v1/users?limit=101');
    expect(tooMany.status).toBe(500);
    expect(tooMany.body).toEqual({ status: 'error', message: 'Internal server error' }); // evidence §2 [T3r DRIFT-10]
  });

  it('reads a body only when it is sent as JSON: a client that forgets Content-Type gets what a JSON API gives it', async () => {
    const body = JSON.stringify(ind());
    const plain = await world.api.call('POST', '/v1/users', { rawBody: body });
    expect(plain.status).toBe(400);
    expect(plain.body.error).toBe('Invalid request data');
    for (const type of ['application/json; charset=utf-8', 'application/merge-patch+json']) {
      const ok = await world.api.call('POST', '/v1/users', {
        rawBody: body,
        headers: { 'content-type': type },
      });
      expect(ok.status).toBe(201);
    }
    expect((await world.sandbox.control.counters()).created.users).toBe(2);
  });
});
