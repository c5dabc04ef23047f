import { cryptoPayoutProblems } from './payout.rules';

const fields = (errors: { field: string }[]) => errors.map((e) => e.field);

describe('crypto payout rules (evidence §11 N35)', () => {
  it('the recorded crypto payout body lacks what the partner named: network, txHash, quote_id', () => {
    // The body of [T3raw abuse/verification-skip-attempt/02-P2-payout-CREATED.json].
    const recorded = {
      user_id: '65ba0e06-9f52-4c43-b093-5d30a632ce3d',
      recipient_id: 'fc6e67a8-4b75-466a-bae6-8e178d994900',
      amount: 1.0,
      currency: 'USD',
    };
    expect(fields(cryptoPayoutProblems(recorded))).toEqual(['network', 'txHash', 'quote_id']);
    const complete = { ...recorded, network: 'ethereum', txHash: '0xabc', quote_id: 'q-1' };
    expect(cryptoPayoutProblems(complete)).toEqual([]);
    expect(cryptoPayoutProblems({ ...complete, amount: '1.50' })).toEqual([]);
    expect(fields(cryptoPayoutProblems({ ...complete, amount: 0, user_id: 'x', txHash: ' ' }))).toEqual([
      'user_id',
      'amount',
      'txHash',
    ]);
    expect(fields(cryptoPayoutProblems(undefined))).toHaveLength(7);
  });
});
