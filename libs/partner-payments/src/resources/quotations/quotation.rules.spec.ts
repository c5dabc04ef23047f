import { quotationProblems } from './quotation.rules';

const fields = (errors: { field: string }[]) => errors.map((e) => e.field);

describe('quotation rules (evidence §11 N36)', () => {
  it('the recorded quotation body lacks a recipient or an account type; amounts are integer minor units', () => {
    // The body of [T3raw 03-P3-quote-CREATED.json].
    const recorded = {
      user_id: '65ba0e06-9f52-4c43-b093-5d30a632ce3d',
      source_currency: 'USD',
      destination_currency: 'MXN',
      amount: 100.0,
      amount_type: 'source',
    };
    expect(quotationProblems(recorded)).toEqual([
      {
        field: 'recipient_id',
        message: 'recipient_id or account_type (WIRE, SWIFT, WALLET, ACH, INSTANT_PAY) is required',
      },
    ]);
    expect(quotationProblems({ ...recorded, account_type: 'WIRE' })).toEqual([]);
    expect(quotationProblems({ ...recorded, recipient_id: 'fc6e67a8-4b75-466a-bae6-8e178d994900' })).toEqual(
      [],
    );
    expect(
      fields(quotationProblems({ ...recorded, account_type: 'ACT', amount: 10.5, amount_type: 'x' })),
    ).toEqual(['account_type', 'amount', 'amount_type']);
  });
});
