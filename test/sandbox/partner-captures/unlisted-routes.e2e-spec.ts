import { useWorld } from '../sandbox.fixture';

/**
 * Two routes the contract does not list, refused as the partner's runtime captures show (evidence
 * §11 N35, N36 [T3raw abuse/verification-skip-attempt/02, 03]); past validation the sandbox says it
 * does not simulate them rather than make a success up.
 */
describe('sandbox: POST /v1/payouts and POST /v1/quotations (evidence §11)', () => {
  const world = useWorld({}, 'all');
  const userId = '65ba0e06-9f52-4c43-b093-5d30a632ce3d';

  it('N35: a crypto payout names network, txHash and quote_id in the Zod shape', async () => {
    const answer = await world.api.call('POST', '/v1/payouts', {
      body: { user_id: userId, recipient_id: crypto.randomUUID(), amount: 1.0, currency: 'USD' },
    });
    expect(answer.status).toBe(400);
    expect(answer.body).toEqual({
      error: 'Invalid request data',
      details: [
        { path: 'network', message: 'Network is required', code: 'invalid_type' },
        { path: 'txHash', message: 'Required', code: 'invalid_type' },
        { path: 'quote_id', message: 'Required', code: 'invalid_type' },
      ],
    });
    const complete = await world.api.call('POST', '/v1/payouts', {
      body: { network: 'ethereum', txHash: '0xabc', quote_id: crypto.randomUUID(), amount: 1 },
    });
    expect([complete.status, complete.body.code]).toEqual([422, 'unprocessable']);
  });

  it('N36: a quotation without recipient_id or account_type is the custom refinement, path as an array', async () => {
    const body = {
      user_id: userId,
      source_currency: 'USD',
      destination_currency: 'MXN',
      amount: 100,
      amount_type: 'source',
    };
    const answer = await world.api.call('POST', '/v1/quotations', { body });
    expect(answer.status).toBe(400);
    expect(answer.body).toEqual({
      code: 'validation_error',
      message: 'Invalid request body',
      details: [
        {
          code: 'custom',
          message:
            'Either recipient_id or account_type (WIRE, SWIFT, WALLET, ACH, or INSTANT_PAY) is required',
          path: ['recipient_id'],
        },
      ],
    });
    expect(
      (await world.api.call('POST', '/v1/quotations', { body: { ...body, account_type: 'ACT' } })).status,
    ).toBe(400);
    const named = await world.api.call('POST', '/v1/quotations', { body: { ...body, account_type: 'WIRE' } });
    expect([named.status, named.body.code]).toEqual([422, 'unprocessable']);
  });

  it('both need the api key and a bearer, like every route', async () => {
    expect((await world.api.call('POST', '/v1/quotations', { body: {}, auth: false })).status).toBe(401);
    expect((await world.api.call('POST', '/v1/payouts', { body: {}, apiKey: null })).status).toBe(403);
  });
});
