import { PartnerSandboxControlClient, startPartnerSandbox } from '@partner-payments/testing';
import { Api, createVerifiedUser, fundedSetup, individual, useWorld } from './sandbox.fixture';

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

describe('sandbox: virtual account lifecycle, balance and deposits (evidence §5)', () => {
  const world = useWorld({ authorizedBanks: ['bank_a', 'bank_d'] });

  const createVa = async (bank = 'bank_a') => {
    const userId = await createVerifiedUser(world.api);
    const va = await world.api.call('POST', '/v1/virtual-accounts', {
      body: { user_id: userId, type: 'US_BANK', bank },
    });
    expect(va.status).toBe(201);
    return { userId, vaId: va.body.virtual_account_id as string };
  };
  const v2 = { headers: { 'X-Api-Version': '2026-06-01' } };

  it('a list filtered by status takes the words of the version asked: on 2026-04-14 `approved` finds activating and active accounts', async () => {
    const { userId, vaId } = await createVa();
    const listed = async (status: string, version?: string) =>
      (
        await world.api.call('GET', `/v1/virtual-accounts?user_id=${userId}&status=${status}`, {
          headers: version ? { 'X-Api-Version': version } : {},
        })
      ).body.data.map((v: { virtual_account_id: string; status: string }) => [
        v.virtual_account_id,
        v.status,
      ]);
    // New: activating, which 2026-04-14 calls `approved` (evidence §5); before, the filter missed it.
    expect(await listed('approved', '2026-04-14')).toEqual([[vaId, 'approved']]);
    expect(await listed('activating', '2026-06-01')).toEqual([[vaId, 'activating']]);
    expect(await listed('active', '2026-06-01')).toEqual([]);
    await world.sandbox.control.provisionVirtualAccount(vaId);
    expect(await listed('approved', '2026-04-14')).toEqual([[vaId, 'approved']]);
    expect(await listed('active')).toEqual([[vaId, 'active']]);
  });

  it('stays activating with no account number until the partner provisions it; the vocabulary follows the version', async () => {
    const { vaId } = await createVa();
    const old = await world.api.call('GET', `/v1/virtual-accounts/${vaId}`, {
      headers: { 'X-Api-Version': '2026-04-14' },
    });
    expect(old.body).toMatchObject({ status: 'approved', account_number: null, routing_number: null });
    const neu = await world.api.call('GET', `/v1/virtual-accounts/${vaId}`, v2);
    expect(neu.body).toMatchObject({ status: 'activating', account_number: null });
    // balance: 400 while activating, a message that says so
    const early = await world.api.call('GET', `/v1/virtual-accounts/${vaId}/balance`);
    expect(early.status).toBe(400);
    expect(early.body.message).toMatch(/activating/);
    expect(await world.sandbox.control.provisionVirtualAccount(vaId)).toEqual({
      status: 'active',
      accountNumberLast4: expect.stringMatching(/^\d{4}$/),
    });
    const active = await world.api.call('GET', `/v1/virtual-accounts/${vaId}`, v2);
    expect(active.body).toMatchObject({
      status: 'active',
      account_number: expect.stringMatching(/^\d{12}$/),
    });
    expect((await world.api.call('GET', `/v1/virtual-accounts/${vaId}/balance`)).body).toEqual({
      virtual_account_id: vaId,
      available_balance: '0.00',
      currency: 'USD',
    });
    await expect(world.sandbox.control.provisionVirtualAccount(vaId)).rejects.toThrow(
      /only pending or activating/,
    );
    const { vaId: failedId } = await createVa();
    await world.sandbox.control.provisionVirtualAccount(failedId, 'failed');
    const at = (version: string) => ({ headers: { 'X-Api-Version': version } });
    expect(
      (await world.api.call('GET', `/v1/virtual-accounts/${failedId}`, at('2026-04-14'))).body.status,
    ).toBe('declined');
    expect((await world.api.call('GET', `/v1/virtual-accounts/${failedId}`, v2)).body.status).toBe('failed');
    // An unpinned account read with no header: the default words are the raw enum, as on 2026-06-01
    // ([D state-machines]: "on the default / newer API versions the raw enum is returned").
    expect((await world.api.call('GET', `/v1/virtual-accounts/${failedId}`)).body.status).toBe('failed');
  });

  it('the ACT bank shows the PENDING-ACT-ACCOUNT placeholder until provisioned', async () => {
    const { vaId } = await createVa('bank_d');
    expect((await world.api.call('GET', `/v1/virtual-accounts/${vaId}`)).body.account_number).toBe(
      'PENDING-ACT-ACCOUNT',
    );
    const simulated = await world.api.call('POST', `/v1/virtual-accounts/${vaId}/simulate-deposit`, {
      body: { amount: '10.00' },
    });
    expect(simulated.status).toBe(400);
    await world.sandbox.control.provisionVirtualAccount(vaId);
    expect((await world.api.call('GET', `/v1/virtual-accounts/${vaId}`)).body.account_number).toMatch(
      /^\d{12}$/,
    );
  });

  it('simulate-deposit credits the balance and sends its event; amount 11 refunds; a payout draws on the balance and one beyond it is refused', async () => {
    const { vaId, recipientId } = await fundedSetup(world.api); // 10,000.00 through the control
    const dep = await world.api.call('POST', `/v1/virtual-accounts/${vaId}/simulate-deposit`, {
      body: { amount: '250.50' },
    });
    expect(dep.status).toBe(201);
    expect(dep.body).toMatchObject({ deposit_id: expect.any(String), amount: '250.50', status: 'COMPLETED' });
    const refunded = await world.api.call('POST', `/v1/virtual-accounts/${vaId}/simulate-deposit`, {
      body: { amount: '11' },
    });
    expect(refunded.body.status).toBe('REFUNDED');
    const bad = await world.api.call('POST', `/v1/virtual-accounts/${vaId}/simulate-deposit`, {
      body: { amount: 5 },
    });
    expect(bad.status).toBe(400);
    expect(bad.body.errors[0].field).toBe('amount');
    const balance = async () =>
      (await world.api.call('GET', `/v1/virtual-accounts/${vaId}/balance`)).body.available_balance;
    expect(await balance()).toBe('10250.50');
    const payout = (amount: string) =>
      world.api.call('POST', `/v1/virtual-accounts/${vaId}/payout`, {
        body: { recipient_id: recipientId, amount, currency: 'USD' },
      });
    const beyond = await payout('10250.51');
    expect(beyond.status).toBe(422);
    expect(beyond.body).toMatchObject({
      code: 'insufficient_funds',
      message: expect.stringContaining('10250.50'),
    });
    expect((await world.sandbox.control.counters()).created.payouts ?? 0).toBe(0);
    expect((await payout('250.50')).status).toBe(201);
    expect(await balance()).toBe('10000.00');
    await world.sandbox.control.flushWebhooks();
    expect(
      world.receiver.events('virtual_account.deposit_funds_received').map((e) => e.body.data.deposit_id),
    ).toContain(dep.body.deposit_id);
  });

  it('refundDeposit: a COMPLETED deposit becomes REFUNDED and leaves the balance, with no webhook by default; the newer event is opt-in; anything else is refused', async () => {
    const { vaId } = await fundedSetup(world.api); // 10,000.00
    const control = world.sandbox.control;
    const { depositId } = await control.simulateDeposit(vaId, { amount: '300.00', rail: 'ACH' });
    await control.flushWebhooks();
    const balance = async () =>
      (await world.api.call('GET', `/v1/virtual-accounts/${vaId}/balance`)).body.available_balance;
    const read = async (id: string) =>
      (await world.api.call('GET', `/v1/virtual-accounts/${vaId}/deposits/${id}`)).body;
    expect(await balance()).toBe('10300.00');
    const before = world.receiver.received.length;
    const deliveriesBefore = (await control.deliveries()).length;

    const refund = await control.refundDeposit(depositId);
    expect(refund).toEqual({ status: 'REFUNDED', refundedAt: expect.any(String), eventId: null });
    await control.flushWebhooks();
    // spec 6.3: no refund event in the 2026-04-14 list; spec 6.4.8: the final state is on the resource.
    expect(world.receiver.received).toHaveLength(before);
    expect(await control.deliveries()).toHaveLength(deliveriesBefore);
    expect(await read(depositId)).toMatchObject({ status: 'REFUNDED', updated_at: refund.refundedAt });
    expect(await balance()).toBe('10000.00');
    expect((await world.api.call('GET', '/v1/virtual-accounts/deposits?limit=100')).body.data).toContainEqual(
      expect.objectContaining({ deposit_id: depositId, status: 'REFUNDED' }),
    );

    // REFUNDED is final (evidence §5), and a deposit before settlement is not refunded after it.
    await expect(control.refundDeposit(depositId)).rejects.toThrow(/is REFUNDED; only a COMPLETED deposit/);
    const held = await control.simulateDeposit(vaId, { amount: '20.00', status: 'KYT_PENDING' });
    for (const status of ['KYT_PENDING', 'PENDING', 'KYT_REJECTED', 'FAILED'] as const) {
      await control.setDepositStatus(held.depositId, status);
      await expect(control.refundDeposit(held.depositId)).rejects.toThrow(`is ${status}`);
      expect((await read(held.depositId)).status).toBe(status);
    }
    await expect(control.refundDeposit(crypto.randomUUID())).rejects.toThrow('unknown deposit');
    // Over HTTP too: the refusal is the control API's 400.
    const http = new PartnerSandboxControlClient(world.sandbox.sandboxBaseUrl);
    await expect(http.refundDeposit(held.depositId)).rejects.toThrow(/refundDeposit failed: .*is FAILED/);

    // Opt-in: the newer event (evidence §9: no status, return_details{code, reason, refunded_at}).
    const other = await control.simulateDeposit(vaId, { amount: '40.00', rail: 'ACH' });
    await control.flushWebhooks();
    const sent = await http.refundDeposit(other.depositId, {
      event: true,
      code: 'R10',
      reason: 'Unauthorized',
    });
    expect(sent).toEqual({ status: 'REFUNDED', refundedAt: expect.any(String), eventId: expect.any(String) });
    await control.flushWebhooks();
    const [event] = world.receiver.events('virtual_account.deposit_funds_refunded');
    expect(event.validSignature).toBe(true);
    expect(event.body.data).toEqual({
      event_id: sent.eventId,
      user_id: expect.any(String),
      virtual_account_id: vaId,
      deposit_id: other.depositId,
      amount: '40.00',
      currency: 'USD',
      return_details: { code: 'R10', reason: 'Unauthorized', refunded_at: sent.refundedAt },
    });
    expect(event.body.data).not.toHaveProperty('status');
    expect(await balance()).toBe('10000.00');
  });

  it('lists deposits of one account (bare array, limit/offset) and of all accounts (paged)', async () => {
    const { vaId } = await fundedSetup(world.api);
    for (const amount of ['1.00', '2.00', '3.00'])
      await world.api.call('POST', `/v1/virtual-accounts/${vaId}/simulate-deposit`, { body: { amount } });
    const page = await world.api.call('GET', `/v1/virtual-accounts/${vaId}/deposits?limit=2&offset=1`);
    expect(page.status).toBe(200);
    expect(Array.isArray(page.body)).toBe(true);
    expect(page.body.map((d: { amount: string }) => d.amount)).toEqual(['1.00', '2.00']);
    expect((await world.api.call('GET', `/v1/virtual-accounts/${vaId}/deposits?limit=101`)).status).toBe(400);
    const all = await world.api.call('GET', '/v1/virtual-accounts/deposits?page=2&limit=3');
    expect(all.status).toBe(200);
    expect(all.body.pagination).toEqual({ page: 2, limit: 3, total: 4, total_pages: 2 });
    expect(all.body.data).toHaveLength(1);
  });

  it('lists accounts as {data, pagination:{total, limit, offset, has_more}} by offset with filters; provider and currency null in the list; page refused; limit over 100 is the bare 500', async () => {
    const { vaId, userId } = await createVa();
    const second = await createVa();
    const list = await world.api.call('GET', `/v1/virtual-accounts?user_id=${userId}`);
    expect(list.body.pagination).toEqual({ total: 1, limit: 20, offset: 0, has_more: false });
    expect(list.body.data[0]).toMatchObject({ virtual_account_id: vaId, provider: null, currency: null });
    const first = await world.api.call('GET', '/v1/virtual-accounts?limit=1');
    expect(first.body.pagination).toEqual({ total: 2, limit: 1, offset: 0, has_more: true });
    const next = await world.api.call('GET', '/v1/virtual-accounts?limit=1&offset=1');
    expect(next.body.pagination).toEqual({ total: 2, limit: 1, offset: 1, has_more: false });
    const ids = [...first.body.data, ...next.body.data].map(
      (v: { virtual_account_id: string }) => v.virtual_account_id,
    );
    expect(ids.sort()).toEqual([vaId, second.vaId].sort());
    // evidence §5 [T2s Common.cs]: the answer pages by offset; whether the partner reads `page`
    // is not known, so the sandbox refuses it rather than honour it.
    const paged = await world.api.call('GET', '/v1/virtual-accounts?limit=1&page=2');
    expect(paged.status).toBe(400);
    expect(paged.body.errors).toEqual([expect.objectContaining({ field: 'page' })]);
    const negative = await world.api.call('GET', '/v1/virtual-accounts?offset=-1');
    expect(negative.status).toBe(400);
    expect(negative.body.errors).toEqual([expect.objectContaining({ field: 'offset' })]);
    const huge = await world.api.call('GET', '/v1/virtual-accounts?limit=100000');
    expect(huge.status).toBe(500);
    expect(huge.body).toEqual({ status: 'error', message: 'Internal server error' });
  });

  it('liquidation-address create needs an Idempotency-Key and the version header, and validates its fields', async () => {
    const { vaId, recipientId } = await fundedSetup(world.api);
    const path = `/v1/virtual-accounts/${vaId}/liquidation-address`;
    const body = { network: 'ethereum', token: 'USDC', recipient_id: recipientId };
    const headers = { 'X-Api-Version': '2026-04-14' }; // spec 4.6: required on this call
    const noKey = await world.api.call('POST', path, { body, headers, idempotencyKey: false });
    expect(noKey.status).toBe(400);
    expect(noKey.body.details[0].path).toBe('idempotency-key');
    expect((await world.api.call('POST', path, { body })).status).toBe(400); // no version header
    const bad = await world.api.call('POST', path, { body: { network: 'ethereum' }, headers });
    expect(bad.status).toBe(400);
    expect(bad.body.errors.map((e: { field: string }) => e.field)).toEqual(['token', 'recipient_id']);
    const created = await world.api.call('POST', path, { body, headers });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ id: expect.any(String), network: 'ethereum', token: 'USDC' });
    const listed = await world.api.call('GET', path, { headers });
    expect(listed.body.map((l: { id: string }) => l.id)).toContain(created.body.id);
  });
});

describe('sandbox: client configuration GET /v1/clients/{uuid} (spec 2.4, 4.5)', () => {
  const world = useWorld({ authorizedBanks: ['bank_a', 'bank_d'] }, 'all');

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
    const otherApi = await new Api(world.sandbox.sandboxBaseUrl, other).login();
    expect(
      (await otherApi.call('GET', `/v1/clients/${other.clientUuid}`)).body.data.client_wallets,
    ).toBeNull();
  });
});

describe('sandbox: an account with no authorized banks (spec 2.4: the partner default is [])', () => {
  const world = useWorld({ authorizedBanks: [] }, 'all');

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

// spec 2.4 (`data.authorizedBanks`: default []) and evidence §5 (a bank outside authorizedBanks →
// 400): a sandbox started with no banks named authorizes none, like a new partner account. It was
// the four banks, a convenience that let a client pass here and fail at the partner.
describe('sandbox: the default authorizedBanks is [] (spec 2.4)', () => {
  it('startPartnerSandbox() without the option: GET /v1/clients shows [], every bank answers 400 on bank', async () => {
    const sandbox = await startPartnerSandbox({ quiet: true });
    try {
      const api = await new Api(sandbox.sandboxBaseUrl, sandbox.credentials).login();
      const config = await api.call('GET', `/v1/clients/${sandbox.credentials.clientUuid}`);
      expect(config.status).toBe(200);
      expect(config.body.data.authorizedBanks).toEqual([]);
      const userId = await createVerifiedUser(api);
      for (const bank of ['bank_a', 'bank_b', 'bank_c', 'bank_d']) {
        const va = await api.call('POST', '/v1/virtual-accounts', {
          body: { user_id: userId, type: 'US_BANK', bank },
        });
        expect([bank, va.status, va.body.code]).toEqual([bank, 400, 'validation_error']);
        expect(va.body.errors).toEqual([expect.objectContaining({ field: 'bank' })]);
      }
      expect((await sandbox.control.counters()).created.virtual_accounts).toBe(0);
      // control.reset() goes back to the start-up list, not to a convenience default.
      await sandbox.control.setAuthorizedBanks(['bank_a']);
      await sandbox.control.reset();
      const after = await new Api(sandbox.sandboxBaseUrl, sandbox.credentials).login();
      const reread = await after.call('GET', `/v1/clients/${sandbox.credentials.clientUuid}`);
      expect(reread.body.data.authorizedBanks).toEqual([]);
    } finally {
      await sandbox.close();
    }
  });

  it('control.createClient() without authorizedBanks: the second account authorizes none either', async () => {
    const sandbox = await startPartnerSandbox({ quiet: true, authorizedBanks: ['bank_a'] });
    try {
      const other = await sandbox.control.createClient();
      const api = await new Api(sandbox.sandboxBaseUrl, other).login();
      const config = await api.call('GET', `/v1/clients/${other.clientUuid}`);
      expect(config.body.data.authorizedBanks).toEqual([]);
      const user = await api.call('POST', '/v1/users', { body: individual() });
      await sandbox.control.setUserVerificationOutcome(user.body.id, 'approved');
      const va = await api.call('POST', '/v1/virtual-accounts', {
        body: { user_id: user.body.id, type: 'US_BANK', bank: 'bank_a' },
      });
      expect(va.status).toBe(400);
      expect(va.body.errors).toEqual([expect.objectContaining({ field: 'bank' })]);
      const withBanks = await sandbox.control.createClient({ authorizedBanks: ['bank_b'] });
      const api2 = await new Api(sandbox.sandboxBaseUrl, withBanks).login();
      const config2 = await api2.call('GET', `/v1/clients/${withBanks.clientUuid}`);
      expect(config2.body.data.authorizedBanks).toEqual(['bank_b']);
    } finally {
      await sandbox.close();
    }
  });
});
