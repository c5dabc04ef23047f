import { individual, startWorld, stopWorld, type World } from '../sandbox.fixture';
import { fundedActBankAccount, fundedSetup, payOutWithMemo } from '../funded-setup.fixture';

describe('sandbox: scripted payouts by amount (option autoPayouts)', () => {
  let world: World;
  let ids: { userId: string; recipientId: string; vaId: string };
  beforeEach(async () => {
    world = await startWorld({ autoPayouts: { stepDelayMs: 5 } });
    ids = await fundedSetup(world.api);
  });
  afterEach(() => stopWorld(world));

  const payOut = async (amount: string) =>
    (
      await world.api.call('POST', `/v1/virtual-accounts/${ids.vaId}/payout`, {
        body: { amount, currency: 'USD', recipient_id: ids.recipientId },
      })
    ).body.id as string;
  const settle = async (id: string, statuses: string[]) => {
    const deadline = Date.now() + 3000;
    for (;;) {
      const read = await world.api.call('GET', `/v1/payouts/${id}`);
      if (read.body.events.length >= statuses.length || Date.now() > deadline) return read.body;
      await new Promise((r) => setTimeout(r, 10));
    }
  };

  it.each([
    ['10.00', ['CREATED', 'PENDING', 'PROCESSING', 'COMPLETED'], 'COMPLETED'],
    ['10.91', ['CREATED', 'PENDING', 'FAILED'], 'FAILED'],
    ['10.92', ['CREATED', 'PENDING', 'PROCESSING', 'COMPLETED', 'FAILED'], 'FAILED'],
    // .93 on a WIRE payout: stopped before sending (CANCELLED, final); the ACT cancellation needs the ACT rail.
    ['10.93', ['CREATED', 'PENDING', 'CANCELLED'], 'CANCELLED'],
    ['10.94', ['CREATED', 'PENDING', 'KYT_PENDING', 'PROCESSING', 'COMPLETED'], 'COMPLETED'],
    ['10.95', ['CREATED', 'PENDING', 'IN_REVIEW'], 'IN_REVIEW'],
  ])('amount %s runs %j', async (amount, statuses, final) => {
    const id = await payOut(amount);
    const payout = await settle(id, statuses);
    expect(payout.events.map((e: { status: string }) => e.status)).toEqual(statuses);
    expect(payout.status).toBe(final);
  });

  it('the events follow the script: a returned payout sends payout.returned; the silent hold sends no completion', async () => {
    const returned = await payOut('20.92');
    const held = await payOut('20.94');
    await settle(returned, [1, 2, 3, 4, 5].map(String));
    await settle(held, [1, 2, 3, 4, 5].map(String));
    await world.sandbox.control.flushWebhooks();
    const of = (id: string) =>
      world.receiver.received.filter((r) => (r.body.data.payout_id ?? r.body.data.data?.payout_id) === id);
    expect(of(returned).map((r) => r.body.event)).toContain('payout.returned');
    const heldEvents = of(held);
    expect(heldEvents.map((r) => r.body.data.data?.status ?? r.body.data.status)).toEqual([
      'created',
      'pending',
      'PENDING',
      'KYT_PENDING',
    ]);
  });

  it('.93 from an account at the ACT bank (bank_d) is an ACT cancellation: resource FAILED, payout.failed cancelled', async () => {
    const actBank = await fundedActBankAccount(world.api, ids.userId);
    const created = await payOutWithMemo(world.api, actBank, ids.recipientId, '40.93');
    expect(created.status).toBe(201);
    const payout = await settle(created.body.id, ['CREATED', 'PENDING', 'FAILED']);
    expect(payout).toMatchObject({ status: 'FAILED', payment_method: 'wire' });
    await world.sandbox.control.flushWebhooks();
    const failed = world.receiver.received.filter(
      (r) => r.body.event === 'payout.failed' && r.body.data.payout_id === created.body.id,
    );
    expect(failed.map((r) => r.body.data.status)).toEqual(['cancelled']);
  });

  it('reset stops running scripts', async () => {
    const id = await payOut('30.00');
    await world.sandbox.control.reset();
    await new Promise((r) => setTimeout(r, 50));
    await world.api.login();
    expect((await world.api.call('GET', `/v1/payouts/${id}`)).status).toBe(404);
    expect((await world.api.call('POST', '/v1/users', { body: individual() })).status).toBe(201);
  });
});
