import { individual, useWorld } from '../sandbox.fixture';
import { createVerifiedUser, fundedSetup } from '../funded-setup.fixture';

describe('sandbox: virtual accounts and deposits (provider-facts)', () => {
  const world = useWorld({ authorizedBanks: ['bank_a', 'bank_b'] });

  it('creates with a bank from authorizedBanks; one per user and bank (409); virtual_account.created echoes metadata', async () => {
    const userId = await createVerifiedUser(world.api);
    const body = { user_id: userId, type: 'US_BANK', bank: 'bank_a', metadata: { ledger: 'L1' } };
    const first = await world.api.call('POST', '/v1/virtual-accounts', {
      body,
      headers: { 'X-Api-Version': '2026-04-14' },
    });
    expect(first.status).toBe(201);
    expect(first.body).toMatchObject({
      virtual_account_id: expect.any(String),
      user_id: userId,
      bank: 'bank_a',
      // evidence §5: 2026-04-14 calls activating `approved`; no account number until provisioned.
      status: 'approved',
      account_number: null,
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

  it('a crypto account names its destination: currency, network and address (evidence §5)', async () => {
    const userId = await createVerifiedUser(world.api);
    const create = (extra: Record<string, unknown>) =>
      world.api.call('POST', '/v1/virtual-accounts', {
        body: { user_id: userId, type: 'US_BANK', bank: 'bank_b', mode: 'crypto', ...extra },
      });
    const none = await create({});
    expect(none.status).toBe(400);
    // evidence §11 N31: the create's schema errors are `details[].message`, "<field> is <problem>".
    const fields = (a: { body: { details: { message: string }[] } }) =>
      a.body.details.map((d) => d.message.split(' is ')[0]);
    expect(fields(none)).toEqual(['destination.currency', 'destination.network', 'destination.address']);
    const partial = await create({ destination: { network: 'ethereum', currency: 'USDC' } });
    expect(fields(partial)).toEqual(['destination.address']);
    expect((await world.sandbox.control.counters()).created.virtual_accounts).toBe(0);
    const ok = await create({
      destination: {
        currency: 'USDC',
        network: 'ethereum',
        address: '0x52908400098527886E0F7030069857D2E4169EE7',
      },
    });
    expect(ok.status).toBe(201);
  });

  it('the user must be VERIFIED: a user the partner left in REVIEW is refused', async () => {
    const userId = (await world.api.call('POST', '/v1/users', { body: individual() })).body.id;
    expect((await world.api.call('GET', `/v1/users/${userId}`)).body.status).toBe('REVIEW');
    const answer = await world.api.call('POST', '/v1/virtual-accounts', {
      body: { user_id: userId, type: 'US_BANK', bank: 'bank_a' },
    });
    expect(answer.status).toBe(400);
    // evidence §11 N33: the standard error shape, the current status named.
    expect(answer.body).toMatchObject({
      statusCode: 400,
      message: 'User must be in VERIFIED status to create a virtual account. Current status: REVIEW',
    });
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
    const deposits = world.receiver
      .events('virtual_account.deposit_funds_received')
      .map((e) => e.body.data)
      .filter((d) => d.deposit_id === wire.depositId || d.deposit_id === ach.depositId);
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
    // Set as 2026-04-14's `rfi`, read back in the default words: `pending` (evidence §5).
    expect((await world.api.call('GET', `/v1/virtual-accounts/${vaId}`)).body).toMatchObject({
      status: 'pending',
      account_number: 'PENDING-ACT-ACCOUNT',
    });
    await expect(world.sandbox.control.setDepositStatus(depositId, 'LOST' as never)).rejects.toThrow(
      'unknown deposit status',
    );
  });
});
