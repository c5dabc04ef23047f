import {
  Api,
  createVerifiedUser,
  fundedSetup,
  individual,
  startWorld,
  stopWorld,
  type World,
} from './sandbox.helpers';

describe('sandbox: virtual accounts and deposits (provider-facts)', () => {
  let world: World;
  beforeEach(async () => (world = await startWorld({ authorizedBanks: ['bank_a', 'bank_b'] })));
  afterEach(() => stopWorld(world));

  it('creates with a bank from authorizedBanks; one per user and bank (409); virtual_account.created echoes metadata', async () => {
    const userId = await createVerifiedUser(world.api);
    const body = { user_id: userId, type: 'US_BANK', bank: 'bank_a', metadata: { ledger: 'L1' } };
    const first = await world.api.call('POST', '/v1/virtual-accounts', { body });
    expect(first.status).toBe(201);
    expect(first.body).toMatchObject({
      virtual_account_id: expect.any(String),
      user_id: userId,
      bank: 'bank_a',
      status: 'approved',
      account_number: expect.stringMatching(/^\d+$/),
      metadata: { ledger: 'L1' },
    });
    const duplicate = await world.api.call('POST', '/v1/virtual-accounts', { body });
    expect(duplicate.status).toBe(409);
    expect(duplicate.body.code).toBe('conflict');
    expect(
      (
        await world.api.call('POST', '/v1/virtual-accounts', {
          body: { ...body, bank: 'bank_b', metadata: undefined },
        })
      ).status,
    ).toBe(201);
    const unauthorized = await world.api.call('POST', '/v1/virtual-accounts', {
      body: { ...body, bank: 'bank_c' },
    });
    expect(unauthorized.status).toBe(400);
    expect(unauthorized.body.errors[0].field).toBe('bank');
    expect((await world.sandbox.control.counters()).created.virtual_accounts).toBe(2);
    await world.sandbox.control.flushWebhooks();
    const created = world.receiver.events('virtual_account.created');
    expect(created).toHaveLength(2);
    expect(created[0].body.data).toMatchObject({
      virtual_account_id: first.body.virtual_account_id,
      user_id: userId,
      status: 'approved',
      metadata: { ledger: 'L1' },
    });
    expect(created[1].body.data.metadata).toEqual({});
  });

  it('the user must be VERIFIED: a user the partner left in REVIEW is refused', async () => {
    const userId = (await world.api.call('POST', '/v1/users', { body: individual() })).body.id;
    expect((await world.api.call('GET', `/v1/users/${userId}`)).body.status).toBe('REVIEW');
    const answer = await world.api.call('POST', '/v1/virtual-accounts', {
      body: { user_id: userId, type: 'US_BANK', bank: 'bank_a' },
    });
    expect(answer.status).toBe(400);
    expect(answer.body.errors[0]).toEqual({ field: 'user_id', message: expect.stringContaining('VERIFIED') });
    expect(
      (
        await world.api.call('POST', '/v1/virtual-accounts', {
          body: { user_id: userId, type: 'US_BANK', bank: 'bank_a' },
          idempotencyKey: false,
        })
      ).status,
    ).toBe(400);
  });

  it('wire and ACH deposits: source fields by rail, no metadata; GET deposit answers it (6.4.3)', async () => {
    const { vaId, userId } = await fundedSetup(world.api);
    const wire = await world.sandbox.control.simulateDeposit(vaId, {
      amount: '250.00',
      rail: 'WIRE',
      senderName: 'Wire Sender',
    });
    const ach = await world.sandbox.control.simulateDeposit(vaId, { amount: '10.00', rail: 'ACH' });
    await world.sandbox.control.simulateDeposit(vaId, { microdeposit: true, rail: 'ACH' });
    await world.sandbox.control.flushWebhooks();
    const deposits = world.receiver.events('virtual_account.deposit_funds_received').map((e) => e.body.data);
    expect(deposits[0]).toMatchObject({
      deposit_id: wire.depositId,
      user_id: userId,
      virtual_account_id: vaId,
      amount: '250.00',
      currency: 'USD',
      created_at: expect.any(String),
    });
    expect(deposits[0].source).toMatchObject({
      payment_rail: 'wire',
      sender_name: 'Wire Sender',
      imad: expect.any(String),
      omad: expect.any(String),
      wire_message: expect.any(String),
    });
    expect(deposits[1].source).toMatchObject({
      payment_rail: 'ach',
      trace_number: expect.any(String),
      sec_code: expect.any(String),
      sender_account_number: expect.any(String),
      reference_number: expect.any(String),
      memo: expect.any(String),
    });
    expect(deposits[1].source).not.toHaveProperty('imad');
    for (const d of deposits) expect(d).not.toHaveProperty('metadata');
    expect(world.receiver.events('virtual_account.microdeposit_funds_received')).toHaveLength(1);
    const read = await world.api.call('GET', `/v1/virtual-accounts/${vaId}/deposits/${ach.depositId}`);
    expect(read.status).toBe(200);
    expect(read.body).toMatchObject({ deposit_id: ach.depositId, status: 'COMPLETED', amount: '10.00' });
    expect(
      (await world.api.call('GET', `/v1/virtual-accounts/${vaId}/deposits/${crypto.randomUUID()}`)).status,
    ).toBe(404);
  });

  it('holds and placeholders change on the resource only, with no event (spec 6.3, 6.4.8)', async () => {
    const { vaId } = await fundedSetup(world.api);
    const { depositId } = await world.sandbox.control.simulateDeposit(vaId, { status: 'KYT_PENDING' });
    await world.sandbox.control.flushWebhooks();
    const before = world.receiver.received.length;
    await world.sandbox.control.setDepositStatus(depositId, 'COMPLETED');
    await world.sandbox.control.updateVirtualAccount(vaId, {
      status: 'rfi',
      account_number: 'PENDING-ACT-ACCOUNT',
    });
    await world.sandbox.control.flushWebhooks();
    expect(world.receiver.received).toHaveLength(before);
    expect(
      (await world.api.call('GET', `/v1/virtual-accounts/${vaId}/deposits/${depositId}`)).body.status,
    ).toBe('COMPLETED');
    expect((await world.api.call('GET', `/v1/virtual-accounts/${vaId}`)).body).toMatchObject({
      status: 'rfi',
      account_number: 'PENDING-ACT-ACCOUNT',
    });
    await expect(world.sandbox.control.setDepositStatus(depositId, 'LOST' as never)).rejects.toThrow(
      'unknown deposit status',
    );
  });
});

describe('sandbox: client configuration GET /v1/clients/{uuid} (spec 2.4, 4.5)', () => {
  let world: World;
  beforeAll(async () => (world = await startWorld({ authorizedBanks: ['bank_a', 'bank_d'] })));
  afterAll(() => stopWorld(world));

  it('answers { success, data } with wallets and vault null until provisioned', async () => {
    const uuid = world.sandbox.credentials.clientUuid;
    const before = await world.api.call('GET', `/v1/clients/${uuid}`);
    expect(before.status).toBe(200);
    expect(before.body).toEqual({
      success: true,
      data: {
        client: expect.objectContaining({
          id: expect.any(Number),
          client_uuid: uuid,
          company_name: expect.any(String),
          pct_fee: expect.stringMatching(/^\d+\.\d+$/),
          fixed_fee: expect.any(String),
          usd_usdc_fee: null,
        }),
        client_wallets: null,
        client_vault: null,
        authorizedBanks: ['bank_a', 'bank_d'],
      },
    });
    const wallet = await world.sandbox.control.provisionClientWallet({ network__id: 'polygon' });
    await world.sandbox.control.provisionClientVault();
    const after = await world.api.call('GET', `/v1/clients/${uuid}`);
    expect(after.body.data.client_wallets).toEqual({ ...wallet, network__id: 'polygon' });
    expect(after.body.data.client_vault).toMatchObject({
      vault_id: expect.any(String),
      object: expect.any(String),
      name: expect.any(String),
      type: expect.any(String),
    });
  });

  it('400 malformed UUID, 403 another client’s UUID, 404 no such client', async () => {
    const malformed = await world.api.call('GET', '/v1/clients/not-a-uuid');
    expect(malformed.status).toBe(400);
    expect(malformed.body.code).toBe('validation_error');
    const other = await world.sandbox.control.createClient();
    expect((await world.api.call('GET', `/v1/clients/${other.clientUuid}`)).status).toBe(403);
    const missing = await world.api.call('GET', `/v1/clients/${crypto.randomUUID()}`);
    expect(missing.status).toBe(404);
    expect(missing.body.code).toBe('not_found');
    const otherApi = await new Api(world.sandbox.baseUrl, other).login();
    expect(
      (await otherApi.call('GET', `/v1/clients/${other.clientUuid}`)).body.data.client_wallets,
    ).toBeNull();
  });
});

describe('sandbox: an account with no authorized banks (spec 2.4: the partner default is [])', () => {
  let world: World;
  beforeAll(async () => (world = await startWorld({ authorizedBanks: [] })));
  afterAll(() => stopWorld(world));

  it('shows authorizedBanks [] and refuses every virtual account with a 400 naming bank', async () => {
    const config = await world.api.call('GET', `/v1/clients/${world.sandbox.credentials.clientUuid}`);
    expect(config.body.data.authorizedBanks).toEqual([]);
    const userId = await createVerifiedUser(world.api);
    const va = await world.api.call('POST', '/v1/virtual-accounts', {
      body: { user_id: userId, type: 'US_BANK', bank: 'bank_a' },
    });
    expect(va.status).toBe(400);
    expect(va.body.errors).toEqual([expect.objectContaining({ field: 'bank' })]);
    expect((await world.sandbox.control.counters()).created.virtual_accounts).toBe(0);
    await world.sandbox.control.setAuthorizedBanks(['bank_c']);
    const ok = await world.api.call('POST', '/v1/virtual-accounts', {
      body: { user_id: userId, type: 'US_BANK', bank: 'bank_c' },
    });
    expect(ok.status).toBe(201);
  });
});
