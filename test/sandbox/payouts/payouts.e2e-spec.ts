import { Api, startWorld, stopWorld, type World } from '../sandbox.fixture';
import { fundedSetup, usePayoutWorld, type PayoutIds } from '../funded-setup.fixture';
import { railBodies } from '../recipient-bodies.fixture';

describe('sandbox: payouts (spec 3.4, 6.4; provider-facts Payouts)', () => {
  let world: World;
  let ids: PayoutIds;
  const { create, flat } = usePayoutWorld((current) => ({ world, ids } = current));

  it('create answers 201 with id and lowercase created; GET answers the bare payout with payout_id and UPPERCASE', async () => {
    const created = await create();
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      id: expect.any(String),
      status: 'created',
      amount: '100.00',
      currency: 'USD',
    });
    expect(created.body).not.toHaveProperty('payout_id');
    const read = await world.api.call('GET', `/v1/payouts/${created.body.id}`);
    expect(read.status).toBe(200);
    expect(read.body).toMatchObject({
      payout_id: created.body.id,
      user_id: ids.userId,
      recipient_id: ids.recipientId,
      status: 'CREATED',
      from_amount: '100.00',
      from_currency: 'USD',
      to_amount: expect.any(String),
      to_currency: 'USD',
      fee: expect.any(String),
      // evidence §6 [D get-a-payout]: origin, lowercase rail, masked parties, events with ids and messages
      origin: 'api',
      payment_method: 'wire',
      reference_number: null,
      error_code: null,
      quote_id: null,
      memo: 'inv 42',
      txn_hash: null,
      uetr: null,
      provider_reference: null,
      quotation: null,
      sender: { name: expect.any(String), account_number: expect.stringMatching(/^\*{4}\d{4}$/) },
      recipient: {
        name: expect.any(String),
        account_type: 'WIRE',
        account_number: expect.stringMatching(/^\*{4}\d{4}$/),
      },
      extra_info: { memo: 'inv 42', supporting_documents: [] },
      events: [
        {
          event_id: expect.any(String),
          status: 'CREATED',
          message: expect.any(String),
          created_at: expect.any(String),
        },
      ],
    });
    // No full account number anywhere in the answer.
    expect(JSON.stringify(read.body)).not.toContain('123456789');
    expect(read.body.sender.name).toEqual(expect.stringMatching(/\S/));
    expect(read.body).not.toHaveProperty('clientUuid');
    const listed = await world.api.call('GET', `/v1/payouts?user_id=${ids.userId}&limit=100`);
    expect(listed.body).toMatchObject({
      page: 1,
      limit: 100,
      total: expect.any(Number),
      total_pages: expect.any(Number),
    });
    expect(listed.body.payouts.find((p: { payout_id: string }) => p.payout_id === created.body.id)).toEqual({
      payout_id: created.body.id,
      short_id: expect.any(String),
      user_id: ids.userId,
      virtual_account_id: ids.vaId,
      status: 'CREATED',
      origin: 'api',
      from_amount: '100.00',
      from_currency: 'USD',
      to_amount: '100.00',
      to_currency: 'USD',
      payment_method: 'wire',
      sender_name: expect.any(String),
      recipient_name: expect.any(String),
      reference: null,
      memo: 'inv 42',
      created_at: expect.any(String),
    });
    expect((await world.api.call('GET', '/v1/payouts?limit=101')).status).toBe(400);
    expect((await world.api.call('GET', '/v1/payouts?virtual_account_id=x')).status).toBe(400);
    await world.sandbox.control.flushWebhooks();
    expect(flat('payout.created')).toEqual([
      expect.objectContaining({ payout_id: created.body.id, status: 'created' }),
    ]);
  });

  it('each rail reads back as its own payment_method, in GET and in the events (evidence §6)', async () => {
    const bodies = railBodies(ids.userId);
    const expected: Array<[string, string, RegExp]> = [
      ['INSTANT_PAY', 'instant_pay', /./],
      ['SWIFT', 'swift', /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/], // a UETR
      ['SPEI', 'spei', /./],
      ['ACH', 'ach', /^\d{15}$/],
    ];
    for (const [rail, method, reference] of expected) {
      const recipient = await world.api.call('POST', '/v1/recipients', { body: bodies[rail] });
      expect([rail, recipient.status]).toEqual([rail, 201]);
      const payout = (await create({ recipient_id: recipient.body.recipient_id })).body.id;
      await world.sandbox.control.advancePayout(payout, ['PENDING', 'PROCESSING', 'COMPLETED']);
      const read = (await world.api.call('GET', `/v1/payouts/${payout}`)).body;
      expect([rail, read.payment_method]).toEqual([rail, method]);
      expect(read.reference_number).toMatch(reference);
      await world.sandbox.control.flushWebhooks();
      const completed = flat('payout.completed').find((d) => d.payout_id === payout);
      expect([rail, completed?.payment_method]).toEqual([rail, method]);
    }
  });

  it('Idempotency-Key required; a replay returns the original answer and creates no second payout', async () => {
    const plain = await create();
    expect(plain.status).toBe(201);
    const noKey = await world.api.call('POST', `/v1/virtual-accounts/${ids.vaId}/payout`, {
      body: { amount: '1.00', currency: 'USD', recipient_id: ids.recipientId },
      idempotencyKey: false,
    });
    expect(noKey.status).toBe(400);
    const key = crypto.randomUUID();
    const a = await create({ amount: '5.00' }, key);
    const b = await create({ amount: '5.00' }, key);
    expect(b.status).toBe(201);
    expect(b.body).toEqual(a.body);
    expect((await world.sandbox.control.counters()).created.payouts).toBe(2);
    await world.sandbox.control.flushWebhooks();
    expect(flat('payout.created')).toHaveLength(2);
  });

  it('the same key with a different body is 409 IDEMPOTENCY_CONFLICT, creates nothing and is counted', async () => {
    const key = crypto.randomUUID();
    const first = await create({ amount: '5.00' }, key);
    const same = await create({ amount: '5.00' }, key);
    expect((await world.sandbox.control.counters()).idempotencyKeyReuses).toBe(0);
    const other = await create({ amount: '7.00' }, key);
    expect(first.status).toBe(201);
    expect(same.status).toBe(201);
    expect(same.body).toEqual(first.body);
    expect(other.status).toBe(409);
    expect(other.body).toEqual({
      error: { code: 'IDEMPOTENCY_CONFLICT', message: expect.any(String), details: {} },
    });
    const counters = await world.sandbox.control.counters();
    expect(counters.created.payouts).toBe(1);
    expect(counters.idempotentReplays).toBe(1);
    expect(counters.idempotencyKeyReuses).toBe(1);
  });

  it('refuses a payout from a virtual account whose funds are not usable (placeholder, declined, deactivated)', async () => {
    const refusedWith = async (patch: Record<string, unknown>) => {
      await world.sandbox.control.updateVirtualAccount(ids.vaId, patch);
      const answer = await create();
      expect(answer.status).toBe(422);
      expect(answer.body.code).toBe('unprocessable');
    };
    await refusedWith({ account_number: 'PENDING-ACT-ACCOUNT' });
    await refusedWith({ account_number: null });
    await refusedWith({ account_number: '000123456789', status: 'deactivated' });
    await refusedWith({ status: 'declined' });
    expect((await world.sandbox.control.counters()).created.payouts).toBe(0);
    await world.sandbox.control.updateVirtualAccount(ids.vaId, { status: 'approved' });
    expect((await create()).status).toBe(201);
  });

  it('refuses every payout from an account with a deposit on hold until it is released (evidence §5)', async () => {
    const { depositId } = await world.sandbox.control.fundVirtualAccount(ids.vaId, '10.00');
    for (const hold of ['KYT_PENDING', 'KYT_REJECTED'] as const) {
      await world.sandbox.control.setDepositStatus(depositId, hold);
      const refused = await create();
      expect([hold, refused.status, refused.body.code]).toEqual([hold, 422, 'unprocessable']);
      expect(refused.body.message).toContain('on hold');
    }
    expect((await world.sandbox.control.counters()).created.payouts).toBe(0);
    await world.sandbox.control.setDepositStatus(depositId, 'COMPLETED');
    expect((await create()).status).toBe(201);
  });

  it('validates amount, currency and recipient; 404 unknown, 403 another client’s payout', async () => {
    const bad = await create({ amount: 100, currency: 'EUR' });
    expect(bad.status).toBe(400);
    expect(bad.body.errors.map((e: { field: string }) => e.field).sort()).toEqual(['amount', 'currency']);
    expect((await create({ amount: '0.00' })).status).toBe(400);
    expect((await create({ recipient_id: crypto.randomUUID() })).body.errors[0].field).toBe('recipient_id');
    expect((await world.api.call('GET', `/v1/payouts/${crypto.randomUUID()}`)).status).toBe(404);
    const { body } = await create();
    const other = await new Api(
      world.sandbox.sandboxBaseUrl,
      await world.sandbox.control.createClient(),
    ).login();
    const foreign = await other.call('GET', `/v1/payouts/${body.id}`);
    expect(foreign.status).toBe(403);
    const foreignCreate = await other.call('POST', `/v1/virtual-accounts/${ids.vaId}/payout`, {
      body: { amount: '1.00', currency: 'USD', recipient_id: ids.recipientId },
    });
    expect(foreignCreate.status).toBe(404);
  });

  it('(weak) list endpoint: { payouts, total, page, limit, total_pages }; unknown query parameters answer 400', async () => {
    const a = (await create()).body.id;
    await create();
    await world.sandbox.control.advancePayout(a, 'PENDING');
    const all = await world.api.call('GET', `/v1/payouts?user_id=${ids.userId}&limit=1&page=2`);
    expect(all.status).toBe(200);
    expect(all.body).toMatchObject({ total: 2, page: 2, limit: 1, total_pages: 2 });
    expect(all.body.payouts).toHaveLength(1);
    const pending = await world.api.call('GET', '/v1/payouts?status=pending');
    expect(pending.body.payouts.map((p: { payout_id: string }) => p.payout_id)).toEqual([a]);
    const unknown = await world.api.call('GET', '/v1/payouts?sort=desc');
    expect(unknown.status).toBe(400);
    expect(unknown.body.errors[0].field).toBe('sort');
  });

  it('control seedPayouts: many payouts at once, walked silently, listed and read like created ones', async () => {
    const control = world.sandbox.control;
    const { payoutIds } = await control.seedPayouts({
      virtualAccountId: ids.vaId,
      recipientId: ids.recipientId,
      count: 150,
      amount: '2.50',
      steps: ['PENDING', 'PROCESSING', 'COMPLETED'],
    });
    expect(new Set(payoutIds).size).toBe(150);
    const read = await world.api.call('GET', `/v1/payouts/${payoutIds[7]}`);
    expect(read.body).toMatchObject({
      status: 'COMPLETED',
      from_amount: '2.50',
      reference_number: expect.any(String),
    });
    expect(read.body.events.map((e: { status: string }) => e.status)).toEqual([
      'CREATED',
      'PENDING',
      'PROCESSING',
      'COMPLETED',
    ]);
    const page2 = await world.api.call(
      'GET',
      `/v1/payouts?user_id=${ids.userId}&status=COMPLETED&limit=100&page=2`,
    );
    expect(page2.body).toMatchObject({ total: 150, total_pages: 2 });
    expect(page2.body.payouts).toHaveLength(50);
    // No webhook for any of it (an app that missed every event), and the balance still applies.
    await control.flushWebhooks();
    expect(world.receiver.received).toHaveLength(0);
    await expect(
      control.seedPayouts({
        virtualAccountId: ids.vaId,
        recipientId: ids.recipientId,
        count: 1,
        amount: '99999999.00',
      }),
    ).rejects.toThrow(/exceeds the available balance/);
    expect((await control.counters()).created.payouts).toBe(150);
  });
});

describe('sandbox: payout preview (evidence §6)', () => {
  it('answers as the partner sandbox by default, validates in the Zod shape (null is a type error), and an opt-in fee profile works', async () => {
    const strict = await startWorld();
    try {
      const ids = await fundedSetup(strict.api);
      const path = `/v1/virtual-accounts/${ids.vaId}/payout/preview`;
      const refused = await strict.api.call('POST', path, {
        body: { amount: '100.00', recipient_id: ids.recipientId },
      });
      expect(refused.status).toBe(400);
      expect(refused.body.message).toBe('Total fees exceed or equal the payout amount');
      const wallet = await strict.api.call('POST', path, {
        body: { amount: '100.00', account_type: 'WALLET' },
      });
      expect(wallet.body.message).toContain('No fee profile configured');
      const bad = await strict.api.call('POST', path, {
        body: { amount: 100, recipient_id: ids.recipientId, client_markup: null },
      });
      expect(bad.status).toBe(400);
      expect(bad.body.error).toBe('Invalid request data');
      expect(bad.body.details.map((d: { path: string }) => d.path)).toEqual(['amount', 'client_markup']);
      // ACT is a bank, not an account type; LATAM recipient types have no preview on record.
      for (const accountType of ['ACT', 'BRL']) {
        const unknown = await strict.api.call('POST', path, {
          body: { amount: '100.00', account_type: accountType },
        });
        expect([unknown.status, unknown.body.details?.[0]?.path]).toEqual([400, 'account_type']);
      }
    } finally {
      await stopWorld(strict);
    }
    const open = await startWorld({ payoutFees: { percent: 2.5, fixed: '0.50' } });
    try {
      const ids = await fundedSetup(open.api);
      const ok = await open.api.call('POST', `/v1/virtual-accounts/${ids.vaId}/payout/preview`, {
        body: { amount: '200.00', recipient_id: ids.recipientId },
      });
      expect(ok.status).toBe(200);
      expect(ok.body).toEqual({
        amount: '200.00',
        currency: 'USD',
        fees: { total: '5.50', percent: '2.5', fixed: '0.50' },
        recipient_amount: '194.50',
        recipient_currency: 'USD',
      });
    } finally {
      await stopWorld(open);
    }
  });
});
