import { Api, individual, startWorld, stopWorld, wireAccount, type World } from './sandbox.helpers';

describe('sandbox: recipients (spec 2.3, 4.4, 8; provider-facts Recipients)', () => {
  let world: World;
  let userId: string;
  beforeEach(async () => {
    world = await startWorld();
    userId = (await world.api.call('POST', '/v1/users', { body: individual() })).body.id;
  });
  afterEach(() => stopWorld(world));

  const recipient = (extra: Record<string, unknown> = {}) => ({
    user_id: userId,
    type: 'business',
    company_name: 'Payee Corp',
    email: 'ap@payee.example',
    address: { street_name: '1 Main St', city: 'Austin', state: 'TX', postal_code: '73301', country: 'US' },
    account: wireAccount(),
    ...extra,
  });

  it('201 when created, with the spec 2.3 shape; 202 with the same recipient when it already existed', async () => {
    const first = await world.api.call('POST', '/v1/recipients', {
      body: recipient({ metadata: { team: 'blue' } }),
    });
    expect(first.status).toBe(201);
    expect(first.body).toMatchObject({
      recipient_id: expect.any(String),
      type: 'business',
      company_name: 'Payee Corp',
      account_type: 'WIRE',
      account_details: {
        routing_number: '021000021',
        account_number: '123456789',
        type: 'checking',
        bank_name: 'Sandbox Bank',
      },
      address: { country: 'US' },
      created_ts: expect.any(String),
      updated_ts: expect.any(String),
      metadata: { team: 'blue' },
    });
    const again = await world.api.call('POST', '/v1/recipients', { body: recipient() });
    expect(again.status).toBe(202);
    expect(again.body.recipient_id).toBe(first.body.recipient_id);
    expect((await world.sandbox.control.counters()).created.recipients).toBe(1);
    const wallet = await world.api.call('POST', '/v1/recipients', {
      body: recipient({
        account: { account_type: 'WALLET', token: 'USDC', address: '0xabc', network: 'ethereum' },
      }),
    });
    expect(wallet.status).toBe(201);
    expect(wallet.body.account_details).toEqual({ token: 'USDC', address: '0xabc', network: 'ethereum' });
  });

  it('GET by id answers the bare recipient; missing or another client’s is 404', async () => {
    const { body } = await world.api.call('POST', '/v1/recipients', { body: recipient() });
    const read = await world.api.call('GET', `/v1/recipients/${body.recipient_id}`);
    expect(read.status).toBe(200);
    expect(read.body).toEqual(body);
    expect((await world.api.call('GET', `/v1/recipients/${crypto.randomUUID()}`)).status).toBe(404);
    const other = await new Api(
      world.sandbox.sandboxBaseUrl,
      await world.sandbox.control.createClient(),
    ).login();
    const foreign = await other.call('GET', `/v1/recipients/${body.recipient_id}`);
    expect(foreign.status).toBe(404);
    expect(foreign.body.code).toBe('not_found');
  });

  it('list needs user_id (400 without) and answers { recipients, total } for that user only', async () => {
    const missing = await world.api.call('GET', '/v1/recipients');
    expect(missing.status).toBe(400);
    expect(missing.body.errors).toEqual([{ field: 'user_id', message: expect.any(String) }]);
    const otherUser = (await world.api.call('POST', '/v1/users', { body: individual() })).body.id;
    await world.api.call('POST', '/v1/recipients', { body: recipient() });
    await world.api.call('POST', '/v1/recipients', {
      body: recipient({ user_id: otherUser, account: wireAccount('999999999') }),
    });
    const list = await world.api.call('GET', `/v1/recipients?user_id=${userId}`);
    expect(list.status).toBe(200);
    expect(list.body.total).toBe(1);
    expect(list.body.recipients.map((r: { user_id: string }) => r.user_id)).toEqual([userId]);
  });

  it('metadata[key]=value filters; several keys require all of them; bad filter keys are 400', async () => {
    await world.api.call('POST', '/v1/recipients', {
      body: recipient({ account: wireAccount('1111'), metadata: { team: 'blue', tier: 'gold' } }),
    });
    await world.api.call('POST', '/v1/recipients', {
      body: recipient({ account: wireAccount('2222'), metadata: { team: 'blue', tier: 'silver' } }),
    });
    await world.api.call('POST', '/v1/recipients', {
      body: recipient({ account: wireAccount('3333'), metadata: { team: 'red' } }),
    });
    const numbers = async (query: string) =>
      (await world.api.call('GET', `/v1/recipients?user_id=${userId}&${query}`)).body.recipients.map(
        (r: { account_details: { account_number: string } }) => r.account_details.account_number,
      );
    expect(await numbers('metadata[team]=blue')).toEqual(['1111', '2222']);
    expect(await numbers('metadata%5Bteam%5D=blue&metadata%5Btier%5D=silver')).toEqual(['2222']);
    expect(await numbers('metadata[team]=green')).toEqual([]);
    const badKey = await world.api.call(
      'GET',
      `/v1/recipients?user_id=${userId}&metadata[${'k'.repeat(41)}]=x`,
    );
    expect(badKey.status).toBe(400);
    expect(badKey.body.code).toBe('validation_error');
    expect((await world.api.call('GET', `/v1/recipients?user_id=${userId}&metadata[]=x`)).status).toBe(400);
  });

  it('metadata rules of spec 8 on create: entries, key length and brackets, value length; nothing created', async () => {
    const cases: [Record<string, unknown>, string][] = [
      [Object.fromEntries(Array.from({ length: 51 }, (_, i) => [`k${i}`, 'v'])), 'metadata'],
      [{ ['k'.repeat(41)]: 'v' }, `metadata.${'k'.repeat(41)}`],
      [{ 'a]': 'v' }, 'metadata.a]'],
      [{ k: 'v'.repeat(501) }, 'metadata.k'],
      [{ k: 5 }, 'metadata.k'],
    ];
    for (const [metadata, field] of cases) {
      const answer = await world.api.call('POST', '/v1/recipients', { body: recipient({ metadata }) });
      expect(answer.status).toBe(400);
      expect(answer.body.code).toBe('validation_error');
      expect(answer.body.errors).toEqual(expect.arrayContaining([{ field, message: expect.any(String) }]));
    }
    expect((await world.sandbox.control.counters()).created.recipients).toBe(0);
  });

  it('validates the body and the account by type, naming each field; unknown user is 404', async () => {
    const bad = await world.api.call('POST', '/v1/recipients', {
      body: {
        user_id: userId,
        type: 'individual',
        account: { account_type: 'WIRE', routing_number: '12', account_number: 'x' },
        address: { country: 'USA' },
      },
    });
    expect(bad.status).toBe(400);
    expect(bad.body.errors.map((e: { field: string }) => e.field).sort()).toEqual(
      [
        'account.account_number',
        'account.routing_number',
        'address.country',
        'first_name',
        'last_name',
      ].sort(),
    );
    const missingIdem = await world.api.call('POST', '/v1/recipients', {
      body: recipient(),
      idempotencyKey: false,
    });
    expect(missingIdem.status).toBe(400);
    const unknownUser = await world.api.call('POST', '/v1/recipients', {
      body: recipient({ user_id: crypto.randomUUID() }),
    });
    expect(unknownUser.status).toBe(404);
  });
});
