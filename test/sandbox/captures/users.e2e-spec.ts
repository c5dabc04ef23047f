import { business, individual, startWorld, stopWorld, type World } from '../sandbox.fixture';

/**
 * The sandbox's users against the partner's raw captures and a second tenant's log (evidence §11:
 * N16-N21, C3-C5). Raw bodies: these tests send what the typed inputs would not let through.
 */
const ind = (extra: Record<string, unknown> = {}): Record<string, unknown> => ({ ...individual(), ...extra });
const biz = (extra: Record<string, unknown> = {}): Record<string, unknown> => ({ ...business(), ...extra });
const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

describe('sandbox: POST /v1/users as the raw captures show it (evidence §11 N16-N21, C3-C5)', () => {
  let world: World;
  beforeEach(async () => (world = await startWorld()));
  afterEach(() => stopWorld(world));

  it('N16: server-controlled and unknown keys are dropped silently and the answer is 201', async () => {
    const chosenId = crypto.randomUUID();
    const answer = await world.api.call('POST', '/v1/users', {
      body: ind({
        id: chosenId,
        verification_status: 'APPROVED',
        eligible_products: [{ product_code: 'usa-virtual-accounts', eligible: true }],
        missing_fields: {},
        verification_triggered: false,
        client_id: crypto.randomUUID(),
        is_admin: true,
        role: 'admin',
        fee_override: '0',
        verified_at: '2026-01-01T00:00:00Z',
        address: { city: 'Austin' },
      }),
    });
    expect(answer.status).toBe(201);
    expect(answer.body.id).not.toBe(chosenId);
    expect(answer.body).toMatchObject({ status: 'CREATED', verification_status: 'unverified' });
    // recomputed, not taken from the body: this complete user triggers verification
    expect(answer.body.verification_triggered).toBe(true);
    expect(answer.body.eligible_products.every((p: { eligible: boolean }) => !p.eligible)).toBe(true);
    const read = await world.api.call('GET', `/v1/users/${answer.body.id}`);
    for (const key of ['client_id', 'is_admin', 'role', 'fee_override', 'verified_at', 'address'])
      expect({ key, stored: key in read.body }).toEqual({ key, stored: false });
    expect((await world.api.call('GET', `/v1/users/${chosenId}`)).status).toBe(404);
  });

  it('N16: PUT stays strict: the same unknown keys are a 400 "Unrecognized key(s)"', async () => {
    const { body } = await world.api.call('POST', '/v1/users', { body: ind() });
    const put = await world.api.call('PUT', `/v1/users/${body.id}`, { body: { is_admin: true } });
    expect(put.status).toBe(400);
    expect(put.body.details[0]).toMatchObject({ code: 'unrecognized_keys' });
  });

  it('an owner as the captures send it (is_signer, has_ownership, ownership_percentage) is stored and echoed', async () => {
    const owner = {
      email: 'signer@acme.example',
      first_name: 'Test',
      last_name: 'Signer',
      is_signer: true,
      has_ownership: true,
      ownership_percentage: 100,
    };
    const created = await world.api.call('POST', '/v1/users', { body: biz({ associated_persons: [owner] }) });
    expect(created.status).toBe(201);
    expect(created.body.associated_persons[0]).toMatchObject(owner);
    const wrong = await world.api.call('POST', '/v1/users', {
      body: biz({ associated_persons: [{ ...owner, ownership_percentage: '100' }] }),
    });
    expect(wrong.status).toBe(400);
    expect(wrong.body.details).toEqual([
      {
        path: 'associated_persons.0.ownership_percentage',
        message: 'Expected number, received string',
        code: 'invalid_type',
      },
    ]);
  });

  it("N17: verification_mode is automatic|verification_link; 'manual' is a 400 naming it", async () => {
    const answer = await world.api.call('POST', '/v1/users', { body: ind({ verification_mode: 'manual' }) });
    expect(answer.status).toBe(400);
    expect(answer.body.details).toEqual([
      {
        path: 'verification_mode',
        message: "Invalid enum value. Expected 'automatic' | 'verification_link', received 'manual'",
        code: 'invalid_enum_value',
      },
    ]);
    expect((await world.sandbox.control.counters()).created.users).toBe(0);
  });

  it('N18: verification_link answers 201 with an https verification_link in the flat body; automatic has none', async () => {
    const linked = await world.api.call('POST', '/v1/users', {
      body: ind({ verification_mode: 'verification_link' }),
    });
    expect(linked.status).toBe(201);
    expect(linked.body.verification_mode).toBe('verification_link');
    expect(new URL(linked.body.verification_link).protocol).toBe('https:');
    const automatic = await world.api.call('POST', '/v1/users', { body: ind() });
    expect(automatic.body).not.toHaveProperty('verification_link');
  });

  it('N19: a business without business_legal_name is the partner Zod 400 naming it', async () => {
    const answer = await world.api.call('POST', '/v1/users', {
      body: biz({ business_legal_name: undefined }),
    });
    expect({ status: answer.status, body: answer.body }).toEqual({
      status: 400,
      body: {
        error: 'Invalid request data',
        details: [{ path: 'business_legal_name', message: 'Required', code: 'invalid_type' }],
      },
    });
  });

  it('N20: a key first used by a failed create, reused with another body → 400 "Failed to store idempotency key"', async () => {
    const key = crypto.randomUUID();
    const failed = await world.api.call('POST', '/v1/users', {
      body: ind({ verification_mode: 'manual' }),
      idempotencyKey: key,
    });
    expect(failed.status).toBe(400);
    const reused = await world.api.call('POST', '/v1/users', { body: ind(), idempotencyKey: key });
    expect({ status: reused.status, body: reused.body }).toEqual({
      status: 400,
      body: { code: 'validation_error', message: 'Failed to store idempotency key' },
    });
    expect((await world.sandbox.control.counters()).created.users).toBe(0);
    // a fresh key creates the user
    expect((await world.api.call('POST', '/v1/users', { body: ind() })).status).toBe(201);
  });

  it('N21, C4: ISO timestamps, every address key ("" when not on file), missing_fields by product code without general', async () => {
    const created = await world.api.call('POST', '/v1/users', {
      body: { type: 'business', business_legal_name: 'Acme LLC', address_country: 'USA' },
    });
    expect(created.status).toBe(201);
    expect(created.body.created_at).toMatch(ISO);
    expect(created.body.updated_at).toMatch(ISO);
    expect(created.body.registered_address).toEqual({
      street_line_1: '',
      street_line_2: '',
      city: '',
      subdivision: '',
      postal_code: '',
      country: 'USA',
    });
    expect(Object.keys(created.body.missing_fields).sort()).toEqual([
      'usa-virtual-accounts',
      'usa-virtual-accounts-act',
    ]);
    expect(created.body.missing_fields['usa-virtual-accounts']).toEqual(
      expect.arrayContaining(['address_street', 'account_purpose']),
    );
    // GET keeps the union under general [T2s Users.cs]
    const read = await world.api.call('GET', `/v1/users/${created.body.id}`);
    expect(read.body.missing_fields.general).toEqual(expect.arrayContaining(['address_street']));
  });

  it('C5: PUT answers the user with updated_fields, requires_reverification, verification_triggered, missing_fields and no warnings', async () => {
    const created = await world.api.call('POST', '/v1/users', {
      body: { type: 'business', business_legal_name: 'Acme LLC' },
    });
    const put = await world.api.call('PUT', `/v1/users/${created.body.id}`, { body: {} });
    expect(put.status).toBe(200);
    expect(put.body).toMatchObject({
      id: created.body.id,
      updated_fields: [],
      requires_reverification: false,
      verification_triggered: false,
      missing_fields: { 'usa-virtual-accounts': expect.any(Array) },
    });
    expect(put.body).not.toHaveProperty('warnings');
    expect(put.body.missing_fields).not.toHaveProperty('general');
  });
});
