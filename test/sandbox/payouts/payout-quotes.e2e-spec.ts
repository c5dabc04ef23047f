/**
 * Quotes at execution (evidence §6 [T1 ExecutePayoutService][T2 Payouts.cs]): a preview with
 * `create_quote` answers `quote_id` and `quote_expires_at`, and the execute names the quote or a
 * `client_markup`, not both. The partner's answers to a wrong quote are not recorded: the sandbox
 * refuses an unknown, used, expired or edited quote with the contract's 400 naming the field, and
 * creates nothing.
 */
import { randomUUID } from 'node:crypto';
import { startPartnerSandbox } from '@partner-payments/testing';
import { startWorld, stopWorld, wireAccount, wireRecipient, type World } from '../sandbox.fixture';
import { fundedSetup } from '../funded-setup.fixture';

const FEES = { percent: 1, fixed: '2.00' };

describe('sandbox: quotes at execution (evidence §6)', () => {
  let world: World;
  afterEach(() => stopWorld(world));

  const payouts = async () => (await world.sandbox.control.counters()).created.payouts ?? 0;
  const preview = async (vaId: string, body: Record<string, unknown>) => {
    const res = await world.api.call('POST', `/v1/virtual-accounts/${vaId}/payout/preview`, {
      body: { create_quote: true, ...body },
    });
    expect(res.status).toBe(200);
    return res.body as { amount: string; quote_id: string; quote_expires_at: string };
  };
  const execute = (vaId: string, body: Record<string, unknown>, idempotencyKey?: string) =>
    world.api.call('POST', `/v1/virtual-accounts/${vaId}/payout`, {
      body: { currency: 'USD', ...body },
      idempotencyKey,
    });

  /** Executes `quoteId` for the given amount to the set-up's own recipient. */
  const executeQuote = (ids: { vaId: string; recipientId: string }, amount: string, quoteId: string) =>
    execute(ids.vaId, { amount, recipient_id: ids.recipientId, quote_id: quoteId });

  it('the partner sandbox makes no quote (DRIFT-45), so any quote_id is refused there, naming it; nothing is created', async () => {
    world = await startWorld();
    const ids = await fundedSetup(world.api);
    const res = await executeQuote(ids, '100.00', randomUUID());
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ code: 'validation_error', errors: [{ field: 'quote_id' }] });
    expect(res.body.errors[0].message).toMatch(/no such quote/);
    expect(await payouts()).toBe(0);
  });

  it('a quote prices one payout: the quoted amount to the quoted recipient, once; a replay of the same call is still the same payout', async () => {
    world = await startWorld({ payoutFees: FEES });
    const ids = await fundedSetup(world.api);
    const quote = await preview(ids.vaId, {
      amount: '97.00',
      recipient_id: ids.recipientId,
      inverse_calculation: true,
    });
    // inverse: 97.00 reaches the recipient; the gross the execute carries is 97.00 + 1% of it + 2.00.
    expect(quote.amount).toBe('99.97');
    // evidence §6 [T2 Payouts.cs]: 10 or 15 minutes; the sandbox gives the shorter.
    const life = Date.parse(quote.quote_expires_at) - Date.now();
    expect(life).toBeGreaterThan(9 * 60_000);
    expect(life).toBeLessThanOrEqual(10 * 60_000);

    const key = randomUUID();
    const body = { amount: quote.amount, recipient_id: ids.recipientId, quote_id: quote.quote_id };
    const created = await execute(ids.vaId, body, key);
    expect(created.status).toBe(201);
    const read = await world.api.call('GET', `/v1/payouts/${created.body.id}`);
    // The payout carries the quoted price: fees come out of the gross amount (evidence §6).
    expect(read.body).toMatchObject({
      quote_id: quote.quote_id,
      from_amount: '99.97',
      fee: '2.97',
      to_amount: '97.00',
    });
    // The same call again (a retry with its key) is answered as the first time, not refused.
    const replay = await execute(ids.vaId, body, key);
    expect([replay.status, replay.body.id]).toEqual([201, created.body.id]);
    // Another payout with the same quote is refused: the quote was spent.
    const again = await execute(ids.vaId, body);
    expect(again.status).toBe(400);
    expect(again.body.errors).toEqual([
      { field: 'quote_id', message: `was already used by payout ${created.body.id}` },
    ]);
    expect(await payouts()).toBe(1);
  });

  it('refuses a quote used with another amount, another recipient, another account or a client_markup, naming each field; nothing is created', async () => {
    world = await startWorld({ payoutFees: FEES });
    const ids = await fundedSetup(world.api);
    const quote = await preview(ids.vaId, { amount: '100.00', recipient_id: ids.recipientId });
    const other = await world.api.call('POST', '/v1/recipients', {
      body: wireRecipient(ids.userId, { account: wireAccount() }),
    });
    expect(other.status).toBe(201);
    const edited = await execute(ids.vaId, {
      amount: '100.01',
      recipient_id: other.body.recipient_id,
      quote_id: quote.quote_id,
    });
    expect(edited.status).toBe(400);
    expect(edited.body.errors).toEqual([
      { field: 'amount', message: 'must be the quoted amount 100.00' },
      { field: 'recipient_id', message: 'must be the recipient the quote was made for' },
    ]);
    const withMarkup = await execute(ids.vaId, {
      amount: '100.00',
      recipient_id: ids.recipientId,
      quote_id: quote.quote_id,
      client_markup: { fixed_fee: '1.00' },
    });
    expect(withMarkup.status).toBe(400);
    expect(withMarkup.body.errors).toEqual([
      { field: 'client_markup', message: 'must not be sent with quote_id' },
    ]);
    // A quote is for the account it was previewed on.
    const second = await fundedSetup(world.api);
    const elsewhere = await execute(second.vaId, {
      amount: '100.00',
      recipient_id: second.recipientId,
      quote_id: quote.quote_id,
    });
    expect(elsewhere.status).toBe(400);
    expect(elsewhere.body.errors[0].field).toBe('quote_id');
    expect(await payouts()).toBe(0);
    // Unspent by the refusals: the quote still works as made.
    const ok = await executeQuote(ids, '100.00', quote.quote_id);
    expect(ok.status).toBe(201);
  });

  it('a quote made for an account type takes a recipient of that type only', async () => {
    world = await startWorld({ payoutFees: FEES });
    const ids = await fundedSetup(world.api);
    const swift = await preview(ids.vaId, { amount: '50.00', account_type: 'SWIFT' });
    const refused = await executeQuote(ids, '50.00', swift.quote_id);
    expect(refused.status).toBe(400);
    expect(refused.body.errors).toEqual([
      { field: 'recipient_id', message: 'must be a SWIFT recipient, the account type quoted' },
    ]);
    const wire = await preview(ids.vaId, { amount: '50.00', account_type: 'WIRE' });
    const ok = await executeQuote(ids, '50.00', wire.quote_id);
    expect(ok.status).toBe(201);
  });

  it('with the opt-in fee profile a payout without a quote is priced at execution on the same profile; fees reaching the amount are refused', async () => {
    world = await startWorld({ payoutFees: FEES });
    const ids = await fundedSetup(world.api);
    const created = await execute(ids.vaId, { amount: '100.00', recipient_id: ids.recipientId });
    expect(created.status).toBe(201);
    const read = await world.api.call('GET', `/v1/payouts/${created.body.id}`);
    expect(read.body).toMatchObject({
      from_amount: '100.00',
      fee: '3.00',
      to_amount: '97.00',
      quote_id: null,
    });
    // 1% of 2.02 rounds to 0.02, plus 2.00: the fee is the whole amount.
    const eaten = await execute(ids.vaId, { amount: '2.02', recipient_id: ids.recipientId });
    expect([eaten.status, eaten.body.message]).toEqual([400, 'Total fees exceed or equal the payout amount']);
    expect(await payouts()).toBe(1);
  });

  it('an expired quote is refused with its expiry; quoteTtlMs sets the life and is checked at start', async () => {
    world = await startWorld({ payoutFees: FEES, quoteTtlMs: 300 });
    const ids = await fundedSetup(world.api);
    const quote = await preview(ids.vaId, { amount: '10.00', recipient_id: ids.recipientId });
    await new Promise((r) => setTimeout(r, 400));
    const res = await executeQuote(ids, '10.00', quote.quote_id);
    expect(res.status).toBe(400);
    expect(res.body.errors).toEqual([
      {
        field: 'quote_id',
        message: `expired at ${new Date(Date.parse(quote.quote_expires_at)).toISOString()}; preview again for a new quote`,
      },
    ]);
    expect(await payouts()).toBe(0);
    for (const bad of [0, -1, 1.5, Number.NaN])
      await expect(startPartnerSandbox({ quoteTtlMs: bad })).rejects.toThrow(
        /quoteTtlMs must be a positive whole number/,
      );
  });
});
