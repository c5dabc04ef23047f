import { PartnerSandboxControlClient } from '@partner-payments/testing';
import { useWorld } from '../sandbox.fixture';
import { createVerifiedUser, fundedSetup } from '../funded-setup.fixture';

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
