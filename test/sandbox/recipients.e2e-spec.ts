import {
  Api,
  individual,
  startWorld,
  stopWorld,
  usAddress,
  wireAccount,
  wireRecipient,
  type World,
} from './sandbox.fixture';
import { PG_TIMESTAMP, TRON_ADDRESS, railBodies, type Body } from './recipient-bodies.fixture';

describe('sandbox: recipients (spec 2.3, 4.4; evidence §4)', () => {
  let world: World;
  let userId: string;
  const post = (body: unknown, idempotencyKey?: string) =>
    world.api.call('POST', '/v1/recipients', { body, idempotencyKey });
  beforeEach(async () => {
    world = await startWorld();
    userId = (await world.api.call('POST', '/v1/users', { body: individual() })).body.id;
  });
  afterEach(() => stopWorld(world));

  it('creates every confirmed rail (201) and answers the partner’s fields on POST and GET', async () => {
    for (const [rail, body] of Object.entries(railBodies(userId))) {
      const created = await post(body);
      expect({ rail, status: created.status }).toEqual({ rail, status: 201 });
      const r = created.body;
      expect(r).toMatchObject({ recipient_id: expect.any(String), account_type: rail, metadata: {} });
      expect(r).not.toHaveProperty('id');
      expect(r).not.toHaveProperty('user_id');
      expect(r.created_ts).toMatch(PG_TIMESTAMP);
      expect(r.updated_ts).toMatch(PG_TIMESTAMP);
      const read = await world.api.call('GET', `/v1/recipients/${r.recipient_id}`);
      expect(read.status).toBe(200);
      if (rail !== 'SWIFT') expect(read.body).toEqual(r);
    }
    const all = await world.api.call('GET', `/v1/recipients?user_id=${userId}`);
    expect(all.body.total).toBe(7);
    expect((await world.sandbox.control.counters()).created.recipients).toBe(7);
  });

  it('reads back unmasked details per rail, type individual by default, SPEI forced to MX', async () => {
    const bodies = railBodies(userId);
    const wire = (await post(bodies.WIRE)).body;
    expect(wire).toEqual({
      recipient_id: wire.recipient_id,
      type: 'individual',
      first_name: 'Bob',
      last_name: 'Payee',
      email: 'bob@payee.example',
      address: usAddress(),
      account_type: 'WIRE',
      account_details: { ...wireAccount(), account_type: undefined },
      metadata: {},
      created_ts: wire.created_ts,
      updated_ts: wire.updated_ts,
    });
    const ach = (await post(bodies.ACH)).body;
    expect(ach.account_details).toMatchObject({
      account_number: '000123456789',
      bank_address: expect.any(String),
    });
    const wallet = (await post(bodies.WALLET)).body;
    expect(wallet).toMatchObject({
      type: 'individual',
      account_details: { token: 'USDT', network: 'tron', address: TRON_ADDRESS },
    });
    // evidence §4 [T3r DRIFT-38]: an alpha-3 country on SPEI is not refused, it is overridden from the CLABE
    const spei = await post({
      ...bodies.SPEI,
      account: { ...(bodies.SPEI.account as Body), country: 'USA' },
    });
    expect(spei.status).toBe(201);
    expect(spei.body.account_details).toEqual({ clabe: '002010077777777771', doc_country_code: 'MX' });
  });

  it('SWIFT: the POST answer blanks bank_address.state and postal_code; GET has them (DRIFT-32)', async () => {
    const created = (await post(railBodies(userId).SWIFT)).body;
    expect(created.account_details.bank_address).toMatchObject({
      city: 'Valencia',
      state: '',
      postal_code: '',
    });
    const read = (await world.api.call('GET', `/v1/recipients/${created.recipient_id}`)).body;
    expect(read.account_details.bank_address).toMatchObject({ state: 'Valencia', postal_code: '46002' });
    expect(read).toMatchObject({ type: 'business', company_name: 'Acme Iberia SL', phone: '+34911234567' });
  });

  it('strips unknown fields silently (DRIFT-37): holder_name, wallet fields on SPEI, top-level extras', async () => {
    const body = railBodies(userId).SPEI;
    const answer = await post({
      ...body,
      holder_name: 'ignored',
      nickname: 'x',
      account: { ...(body.account as Body), wallet_address: TRON_ADDRESS, network: 'tron', token: 'USDT' },
    });
    expect(answer.status).toBe(201);
    expect(answer.body).not.toHaveProperty('holder_name');
    expect(answer.body).not.toHaveProperty('nickname');
    expect(Object.keys(answer.body.account_details).sort()).toEqual(['clabe', 'doc_country_code']);
  });

  it('blocked LATAM rails answer the bank_code refusal; an unknown user is a typed 404', async () => {
    const pse = await post({
      user_id: userId,
      first_name: 'Ana',
      last_name: 'Gomez',
      account: {
        account_type: 'PSE',
        account_number: '123',
        bank_code: '1007',
        type: 'checking',
        doc_type: 'nuip',
        doc_number: '1',
        doc_country_code: 'CO',
      },
    });
    expect(pse.status).toBe(400);
    expect(pse.body.error.message).toBe("Invalid bank code '1007' - bank not found in system for country CO");
    const unknown = await post(wireRecipient(crypto.randomUUID()));
    expect(unknown.status).toBe(404);
    expect(unknown.body).toEqual({ error: { code: 'NOT_FOUND', message: expect.any(String), details: {} } });
  });

  it('a user need not be VERIFIED to get a recipient (evidence §4)', async () => {
    const user = await world.api.call('POST', '/v1/users', {
      body: individual({ email: 'v+provider_outage@example.com' }),
    });
    const id = user.body.id ?? user.body.user_id;
    expect((await world.api.call('GET', `/v1/users/${id}`)).body.status).not.toBe('VERIFIED');
    expect((await post(wireRecipient(id))).status).toBe(201);
  });

  it('GET by id: 400 malformed, 404 missing or another client’s (typed shape)', async () => {
    const { body } = await post(wireRecipient(userId));
    expect((await world.api.call('GET', '/v1/recipients/not-a-uuid')).status).toBe(400);
    const missingId = crypto.randomUUID();
    const missing = await world.api.call('GET', `/v1/recipients/${missingId}`);
    // evidence §11 N12: typed, details {}, the message repeating the id.
    expect({ status: missing.status, body: missing.body }).toEqual({
      status: 404,
      body: {
        error: { code: 'NOT_FOUND', message: `Recipient with ID ${missingId} not found`, details: {} },
      },
    });
    const other = await new Api(
      world.sandbox.sandboxBaseUrl,
      await world.sandbox.control.createClient(),
    ).login();
    const foreign = await other.call('GET', `/v1/recipients/${body.recipient_id}`);
    expect(foreign.body.error.message).toBe(`Recipient with ID ${body.recipient_id} not found`);
  });

  it('list: { recipients, total } for one user; no user_id 400 and an unknown user 404, both typed with details {}', async () => {
    const missing = await world.api.call('GET', '/v1/recipients');
    expect(missing.status).toBe(400);
    expect(missing.body).toEqual({
      error: { code: 'VALIDATION_ERROR', message: expect.any(String), details: {} },
    });
    const unknown = await world.api.call('GET', `/v1/recipients?user_id=${crypto.randomUUID()}`);
    expect(unknown.status).toBe(404);
    expect(unknown.body).toEqual({ error: { code: 'NOT_FOUND', message: expect.any(String), details: {} } });
    const other = await world.api.call('POST', '/v1/users', { body: individual() });
    await post(wireRecipient(userId));
    await post(wireRecipient(other.body.id ?? other.body.user_id, { account: wireAccount('999999999') }));
    const list = await world.api.call('GET', `/v1/recipients?user_id=${userId}`);
    expect(list.status).toBe(200);
    expect(list.body).toEqual({ recipients: [expect.objectContaining({ account_type: 'WIRE' })], total: 1 });
    expect(list.body.recipients[0].account_details.account_number).toBe('123456789');
  });

  it('metadata[key]=value filters (all keys must match); a bad filter key is 400; metadata limits on create', async () => {
    for (const [n, metadata] of [
      ['1111', { team: 'blue', tier: 'gold' }],
      ['2222', { team: 'blue', tier: 'silver' }],
      ['3333', { team: 'red' }],
    ] as const)
      await post(wireRecipient(userId, { account: wireAccount(n), metadata }));
    const numbers = async (query: string) =>
      (await world.api.call('GET', `/v1/recipients?user_id=${userId}&${query}`)).body.recipients.map(
        (r: { account_details: { account_number: string } }) => r.account_details.account_number,
      );
    expect(await numbers('metadata[team]=blue')).toEqual(['1111', '2222']);
    expect(await numbers('metadata%5Bteam%5D=blue&metadata%5Btier%5D=silver')).toEqual(['2222']);
    expect(await numbers('metadata[team]=green')).toEqual([]);
    expect(
      (await world.api.call('GET', `/v1/recipients?user_id=${userId}&metadata[${'k'.repeat(41)}]=x`)).status,
    ).toBe(400);
    for (const metadata of [{ k: 'v'.repeat(501) }, { k: 5 }, { 'a]': 'v' }]) {
      const answer = await post(wireRecipient(userId, { metadata }));
      expect(answer.status).toBe(400);
      expect(answer.body.details[0].path).toMatch(/^metadata\./);
    }
  });

  it('DELETE /v1/recipients/{id} does not exist: 403 like any unmatched route, the recipient stays (DRIFT-39)', async () => {
    const { body } = await post(wireRecipient(userId));
    const del = await world.api.call('DELETE', `/v1/recipients/${body.recipient_id}`);
    expect(del.status).toBe(403);
    expect((await world.api.call('GET', `/v1/recipients/${body.recipient_id}`)).status).toBe(200);
  });
});
