/**
 * Amounts are decimal strings at the partner (evidence §6 [T3r DRIFT-41]: `^[0-9]+(\.[0-9]{1,2})?$`;
 * GET payout `from_amount`/`to_amount` decimal strings, evidence §6 [D get-a-payout]; deposit amounts
 * strings, evidence §5). The sandbox must keep every cent of them: a double holds 15-17 significant
 * digits, so "999999999999999.99" (15 integer digits, which the reference app accepts) used to come
 * back as "1000000000000000.00", and a balance of such amounts lost its cents.
 */
import { startPartnerSandbox } from '@partner-payments/testing';
import { startWorld, stopWorld, useWorld, type World } from './sandbox.fixture';
import { fundedSetup } from './funded-setup.fixture';

const BIG = '999999999999999.99';

/** Every amount-like string field anywhere in a webhook body (flat, V2 and nested data). */
function amountsIn(value: unknown, found: Array<[string, string]> = []): Array<[string, string]> {
  if (Array.isArray(value)) for (const v of value) amountsIn(v, found);
  else if (value !== null && typeof value === 'object')
    for (const [key, v] of Object.entries(value)) {
      if (/amount$/.test(key) && v !== null) found.push([key, String(v)]);
      else amountsIn(v, found);
    }
  return found;
}

describe('sandbox: amounts are exact decimal strings, never floats (evidence §5, §6)', () => {
  const world = useWorld();
  const balanceOf = async (vaId: string) =>
    (await world.api.call('GET', `/v1/virtual-accounts/${vaId}/balance`)).body.available_balance;
  const payOut = (vaId: string, recipientId: string, amount: string) =>
    world.api.call('POST', `/v1/virtual-accounts/${vaId}/payout`, {
      body: { amount, currency: 'USD', recipient_id: recipientId },
    });

  it('a payout of 999999999999999.99 is answered, read back, listed and sent in its events with exactly that amount; the balance after it is exact', async () => {
    const { userId, vaId, recipientId } = await fundedSetup(world.api); // 10,000.00
    await world.sandbox.control.flushWebhooks();
    world.receiver.received.length = 0;
    const deposit = await world.api.call('POST', `/v1/virtual-accounts/${vaId}/simulate-deposit`, {
      body: { amount: BIG },
    });
    expect(deposit.status).toBe(201);
    expect(deposit.body.amount).toBe(BIG);
    expect(await balanceOf(vaId)).toBe('1000000000009999.99');
    await world.sandbox.control.flushWebhooks();
    expect(
      world.receiver.events('virtual_account.deposit_funds_received').map((e) => e.body.data.amount),
    ).toEqual([BIG]);
    world.receiver.received.length = 0;

    const created = await payOut(vaId, recipientId, BIG);
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ status: 'created', amount: BIG, currency: 'USD' });
    const id = created.body.id as string;
    expect(await balanceOf(vaId)).toBe('10000.00');

    const read = await world.api.call('GET', `/v1/payouts/${id}`);
    expect(read.body).toMatchObject({
      from_amount: BIG,
      from_currency: 'USD',
      to_amount: BIG,
      to_currency: 'USD',
    });
    const listed = await world.api.call('GET', `/v1/payouts?user_id=${userId}`);
    expect(listed.body.payouts).toEqual([
      expect.objectContaining({ payout_id: id, from_amount: BIG, to_amount: BIG }),
    ]);

    await world.sandbox.control.advancePayout(id, ['PENDING', 'PROCESSING', 'COMPLETED']);
    expect((await world.api.call('GET', `/v1/payouts/${id}`)).body).toMatchObject({
      status: 'COMPLETED',
      from_amount: BIG,
      to_amount: BIG,
    });
    await world.sandbox.control.flushWebhooks();
    const events = world.receiver.received
      .filter((r) => JSON.stringify(r.body).includes(id))
      .map((r) => ({ name: r.body.event as string, amounts: amountsIn(r.body) }));
    expect(events.map((e) => e.name)).toEqual(
      expect.arrayContaining(['payout.created', 'payout.completed', 'payout.status_changed']),
    );
    for (const { name, amounts } of events) {
      expect([name, amounts.length > 0]).toEqual([name, true]);
      for (const [key, amount] of amounts) expect([name, key, amount]).toEqual([name, key, BIG]);
    }
    // Completed is not final (a return would move it to FAILED), so it still draws on the balance.
    expect(await balanceOf(vaId)).toBe('10000.00');
  });

  it('insufficient funds is decided exactly at a one-cent boundary with large amounts', async () => {
    const { vaId, recipientId } = await fundedSetup(world.api); // 10,000.00
    await world.sandbox.control.fundVirtualAccount(vaId, BIG);
    expect(await balanceOf(vaId)).toBe('1000000000009999.99');
    // One cent more than the balance: a double cannot tell the two apart at this size.
    const over = await payOut(vaId, recipientId, '1000000000010000.00');
    expect(over.status).toBe(422);
    expect(over.body).toMatchObject({
      code: 'insufficient_funds',
      message: expect.stringContaining('exceeds the available balance 1000000000009999.99'),
    });
    expect((await world.sandbox.control.counters()).created.payouts ?? 0).toBe(0);
    const exact = await payOut(vaId, recipientId, '1000000000009999.99');
    expect(exact.status).toBe(201);
    expect(exact.body.amount).toBe('1000000000009999.99');
    expect(await balanceOf(vaId)).toBe('0.00');
    const cent = await payOut(vaId, recipientId, '0.01');
    expect([cent.status, cent.body.code]).toEqual([422, 'insufficient_funds']);
  });

  it('a large balance keeps its last cent: one cent short of it is paid, leaving exactly 0.01', async () => {
    const { vaId, recipientId } = await fundedSetup(world.api); // 10,000.00
    await world.sandbox.control.fundVirtualAccount(vaId, '999999999989999.99'); // → 999999999999999.99
    expect(await balanceOf(vaId)).toBe(BIG);
    const paid = await payOut(vaId, recipientId, '999999999999999.98');
    expect([paid.status, paid.body.amount]).toEqual([201, '999999999999999.98']);
    expect(await balanceOf(vaId)).toBe('0.01');
  });

  it('control seedPayouts takes and checks large amounts exactly too', async () => {
    const { vaId, recipientId } = await fundedSetup(world.api); // 10,000.00
    const control = world.sandbox.control;
    await control.fundVirtualAccount(vaId, BIG);
    const seed = (count: number, amount: string) =>
      control.seedPayouts({ virtualAccountId: vaId, recipientId, count, amount });
    const { payoutIds } = await seed(1, BIG);
    expect((await world.api.call('GET', `/v1/payouts/${payoutIds[0]}`)).body).toMatchObject({
      from_amount: BIG,
      to_amount: BIG,
    });
    await expect(seed(2, '5000.01')).rejects.toThrow(/exceeds the available balance 10000\.00/);
    await seed(2, '5000.00');
    expect(await balanceOf(vaId)).toBe('0.00');
    await expect(control.fundVirtualAccount(vaId, '1,000.00')).rejects.toThrow(/decimal string/);
  });

  it('simulate-deposit keeps the cents of large amounts, still normalises short ones, and refunds exactly 11', async () => {
    const { vaId } = await fundedSetup(world.api); // 10,000.00
    const deposit = (amount: string) =>
      world.api.call('POST', `/v1/virtual-accounts/${vaId}/simulate-deposit`, { body: { amount } });
    expect((await deposit('0.1')).body).toMatchObject({ amount: '0.10', status: 'COMPLETED' });
    expect((await deposit('11.00')).body).toMatchObject({ amount: '11.00', status: 'REFUNDED' });
    expect((await deposit('011')).body).toMatchObject({ amount: '11.00', status: 'REFUNDED' });
    expect((await deposit('11.01')).body).toMatchObject({ amount: '11.01', status: 'COMPLETED' });
    expect((await deposit('123456789012345.67')).body).toMatchObject({
      amount: '123456789012345.67',
      status: 'COMPLETED',
    });
    for (const bad of ['1.234', '-1.00', '1e3', '0.00', ' 1.00'])
      expect([bad, (await deposit(bad)).status]).toEqual([bad, 400]);
    // 10,000.00 + 0.10 + 11.01 + 123,456,789,012,345.67 (the refunds are not available).
    expect(await balanceOf(vaId)).toBe('123456789022356.78');
  });
});

describe('sandbox: the opt-in fee profile on exact cents (payoutFees; evidence §6 preview)', () => {
  let world: World;
  beforeAll(async () => {
    world = await startWorld({ payoutFees: { percent: 2.5, fixed: '0.50' } });
  });
  afterAll(() => stopWorld(world));
  const preview = async (vaId: string, recipientId: string, body: Record<string, unknown>) =>
    world.api.call('POST', `/v1/virtual-accounts/${vaId}/payout/preview`, {
      body: { recipient_id: recipientId, ...body },
    });

  it('fees are 2.5 % of the cents rounded half-up plus the fixed part; fees reaching the amount are refused exactly', async () => {
    const { vaId, recipientId } = await fundedSetup(world.api);
    // 2.5 % of 99999999999999999 cents is 2499999999999999.975 → 2500000000000000, + 50.
    expect((await preview(vaId, recipientId, { amount: BIG })).body).toEqual({
      amount: BIG,
      currency: 'USD',
      fees: { total: '25000000000000.50', percent: '2.5', fixed: '0.50' },
      recipient_amount: '974999999999999.49',
      recipient_currency: 'USD',
    });
    expect((await preview(vaId, recipientId, { amount: BIG, inverse_calculation: true })).body).toMatchObject(
      {
        amount: '1025000000000000.49',
        fees: { total: '25000000000000.50' },
        recipient_amount: BIG,
      },
    );
    // 2.5 % of 1.00 is 2.5 cents → 3 (half up).
    expect((await preview(vaId, recipientId, { amount: '1.00' })).body).toMatchObject({
      fees: { total: '0.53' },
      recipient_amount: '0.47',
    });
    // 0.51: 1.275 cents → 1, + 50 = 51 = the amount → refused; 0.52 leaves one cent.
    const equal = await preview(vaId, recipientId, { amount: '0.51' });
    expect([equal.status, equal.body.message]).toEqual([400, 'Total fees exceed or equal the payout amount']);
    expect((await preview(vaId, recipientId, { amount: '0.52' })).body).toMatchObject({
      fees: { total: '0.51' },
      recipient_amount: '0.01',
    });
  });

  it('a malformed fee profile is refused at start, not computed on', async () => {
    for (const payoutFees of [
      { percent: -1, fixed: '0.50' },
      { percent: Number.NaN, fixed: '0.50' },
      { percent: 1e-7, fixed: '0.50' },
      { percent: 1, fixed: '0.5.0' },
      { percent: 1, fixed: '-1.00' },
    ]) {
      // A sandbox that starts anyway is closed again, so a regression fails here instead of hanging.
      const outcome = await startPartnerSandbox({ payoutFees }).then(
        async (sandbox) => (await sandbox.close(), 'started'),
        (error: Error) => error.message,
      );
      expect([payoutFees, outcome]).toEqual([
        payoutFees,
        expect.stringMatching(/^payoutFees\.(percent|fixed) must/),
      ]);
    }
  });
});
