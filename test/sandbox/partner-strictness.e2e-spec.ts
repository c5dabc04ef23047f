/**
 * Requests the partner refuses that the sandbox used to accept (each case cites its evidence tag):
 * an integrator passing here must not break against the partner.
 */
import { startPartnerSandbox } from '@partner-payments/testing';
import { Api, wireAccount, wireRecipient, useWorld } from './sandbox.fixture';
import { createVerifiedUser, fundedSetup } from './funded-setup.fixture';

describe('sandbox: refuses what the partner refuses', () => {
  const world = useWorld();

  it('simulate-deposit exists only on the sandbox base: the production base (root) answers 403', async () => {
    // evidence §5 [T1 KiraApiClient, REVISION-DOCS §5]: sandbox only, production answers 403.
    const { vaId } = await fundedSetup(world.api);
    // evidence §11 N2: the route does not exist there, whatever the credentials (a 403 before the
    // stage's 401 that any other route gets with a sandbox token).
    const production = new Api(world.sandbox.baseUrl, world.sandbox.credentials);
    production.token = world.api.token;
    const refused = await production.call('POST', `/v1/virtual-accounts/${vaId}/simulate-deposit`, {
      body: { amount: '10.00' },
    });
    expect(refused.status).toBe(403);
    expect(refused.body).toMatchObject({ code: 'invalid_request' });
    // With both bases served (the opt-in convenience), the root still lacks it.
    const both = await startPartnerSandbox({ bases: 'both' });
    try {
      const root = await new Api(both.baseUrl, both.credentials).login();
      const rootDeposit = await root.call('POST', `/v1/virtual-accounts/${vaId}/simulate-deposit`, {
        body: { amount: '10.00' },
      });
      expect([rootDeposit.status, rootDeposit.body.code]).toEqual([403, 'invalid_request']);
    } finally {
      await both.close();
    }
    // Nothing was credited: only the control's funding deposit exists.
    expect((await world.api.call('GET', `/v1/virtual-accounts/${vaId}/deposits`)).body).toHaveLength(1);
    // The sandbox base still serves it.
    const allowed = await world.api.call('POST', `/v1/virtual-accounts/${vaId}/simulate-deposit`, {
      body: { amount: '10.00' },
    });
    expect(allowed.status).toBe(201);
  });

  it('a WIRE payout from the ACT bank needs extra_info.memo; a memo over 255 characters is refused everywhere', async () => {
    // evidence §6 [T1 REVISION-DOCS §4]: memo required on WIRE when the account's bank is the ACT
    // one (bank_d here); [T1 ExecutePayoutService]: extra_info.memo at most 255 characters.
    const userId = await createVerifiedUser(world.api);
    const recipient = await world.api.call('POST', '/v1/recipients', {
      body: wireRecipient(userId, { account: wireAccount() }),
    });
    const va = await world.api.call('POST', '/v1/virtual-accounts', {
      body: { user_id: userId, type: 'US_BANK', bank: 'bank_d' },
    });
    const vaId = va.body.virtual_account_id as string;
    await world.sandbox.control.fundVirtualAccount(vaId);
    const payout = (extra: Record<string, unknown>) =>
      world.api.call('POST', `/v1/virtual-accounts/${vaId}/payout`, {
        body: { amount: '10.00', currency: 'USD', recipient_id: recipient.body.recipient_id, ...extra },
      });
    for (const extra of [{}, { extra_info: {} }, { extra_info: { memo: '' } }]) {
      const missing = await payout(extra);
      expect(missing.status).toBe(400);
      expect(missing.body.errors).toEqual([{ field: 'extra_info.memo', message: expect.any(String) }]);
    }
    const long = await payout({ extra_info: { memo: 'x'.repeat(256) } });
    expect(long.status).toBe(400);
    expect(long.body.errors).toEqual([{ field: 'extra_info.memo', message: expect.stringContaining('255') }]);
    expect((await world.sandbox.control.counters()).created.payouts ?? 0).toBe(0);
    expect((await payout({ extra_info: { memo: 'x'.repeat(255) } })).status).toBe(201);
  });

  it('a memo over 255 characters is refused on any bank; no memo is fine off the ACT bank', async () => {
    const { vaId, recipientId } = await fundedSetup(world.api);
    const payout = (extra: Record<string, unknown>) =>
      world.api.call('POST', `/v1/virtual-accounts/${vaId}/payout`, {
        body: { amount: '10.00', currency: 'USD', recipient_id: recipientId, ...extra },
      });
    const long = await payout({ extra_info: { memo: 'x'.repeat(256) } });
    expect(long.status).toBe(400);
    expect(long.body.errors[0].field).toBe('extra_info.memo');
    expect((await payout({ extra_info: 'memo' })).status).toBe(400);
    expect((await payout({})).status).toBe(201);
  });

  it('a payout priced at execution: client_markup an object, nature_of_payment and internal_notes strings; nothing created when refused', async () => {
    // evidence §6 [T1 ExecutePayoutService]: `quote_id` or `client_markup`, optional
    // nature_of_payment and extra_info.internal_notes; [T3r DRIFT-42, 43]: client_markup an
    // object, null a type error.
    const { vaId, recipientId } = await fundedSetup(world.api);
    const payout = (extra: Record<string, unknown>) =>
      world.api.call('POST', `/v1/virtual-accounts/${vaId}/payout`, {
        body: { amount: '10.00', currency: 'USD', recipient_id: recipientId, ...extra },
      });
    const listed = async () => (await world.sandbox.control.counters()).created.payouts ?? 0;
    const before = await listed();
    const refused = await payout({
      client_markup: '15.00',
      nature_of_payment: 3,
      extra_info: { internal_notes: {} },
    });
    expect(refused.status).toBe(400);
    expect(refused.body.errors).toEqual([
      { field: 'client_markup', message: 'must be an object' },
      { field: 'nature_of_payment', message: 'must be a string' },
      { field: 'extra_info.internal_notes', message: 'must be a string' },
    ]);
    const nullMarkup = await payout({ client_markup: null });
    expect(nullMarkup.status).toBe(400);
    expect(nullMarkup.body.errors).toEqual([{ field: 'client_markup', message: 'must be an object' }]);
    expect(await listed()).toBe(before);
    const accepted = await payout({
      client_markup: { fixed_fee: '15.00', percentage_fee: '0' },
      nature_of_payment: 'services',
      extra_info: { internal_notes: 'approved by ops' },
    });
    expect(accepted.status).toBe(201);
    expect(await listed()).toBe(before + 1);
  });

  it('virtual account mode is the enum fiat | crypto: another value or casing is refused', async () => {
    // evidence §5 [D create-a-virtual-account]: `mode` (`fiat|crypto`).
    const userId = await createVerifiedUser(world.api);
    for (const mode of ['FIAT', 'Crypto', 'card', '']) {
      const refused = await world.api.call('POST', '/v1/virtual-accounts', {
        body: { user_id: userId, type: 'US_BANK', bank: 'bank_a', mode },
      });
      expect(refused.status).toBe(400);
      // evidence §11 N31: the create's schema errors are "<field> is <problem>" details.
      expect(refused.body.details).toEqual([{ message: expect.stringMatching(/^mode is .*'fiat'/) }]);
    }
    expect((await world.sandbox.control.counters()).created.virtual_accounts ?? 0).toBe(0);
    const fiat = await world.api.call('POST', '/v1/virtual-accounts', {
      body: { user_id: userId, type: 'US_BANK', bank: 'bank_a', mode: 'fiat' },
    });
    expect(fiat.status).toBe(201);
  });
});
