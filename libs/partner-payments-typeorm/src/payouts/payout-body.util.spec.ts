import { createHash } from 'node:crypto';
import type { PartnerPayout } from '@partner-payments/nestjs';
import {
  differingField,
  partnerBody,
  partnerPayoutFingerprint,
  payoutMismatch,
  requestColumns,
  storageProblems,
  storedRequest,
  type PartnerOutboxPayoutRequest,
} from './payout-body.util';
import type { PartnerPayoutRequestEntity } from './payout-request.entity';

const VA = '0b7c7f36-2f1c-4a53-9d0c-0d9f1b1c2a10';
const RECIPIENT = '6a1d3c55-9a8e-4f61-8d11-5b9d2c3e4f70';
const request = (memo?: string): PartnerOutboxPayoutRequest => ({
  virtualAccountId: VA,
  body: {
    recipient_id: RECIPIENT,
    amount: '100.25',
    currency: 'USD',
    ...(memo === undefined ? {} : { extra_info: { memo } }),
  },
});
/** The row the outbox writes for a request, as TypeORM reads it back. */
const rowOf = (r: PartnerOutboxPayoutRequest): PartnerPayoutRequestEntity => {
  const c = requestColumns(r);
  return {
    idempotencyKey: 'k',
    fingerprint: partnerPayoutFingerprint(r),
    virtualAccountId: c.virtual_account_id!,
    recipientId: c.recipient_id!,
    amount: c.amount!,
    currency: c.currency!,
    memo: c.memo,
  } as PartnerPayoutRequestEntity;
};

describe('partnerPayoutFingerprint', () => {
  it('is the reference app’s fingerprint, so a key stored before the move still replays', () => {
    const old = (fields: string[]) => createHash('sha256').update(JSON.stringify(fields)).digest('hex');
    expect(partnerPayoutFingerprint(request())).toBe(old([VA, RECIPIENT, '100.25', 'USD']));
    expect(partnerPayoutFingerprint(request('rent'))).toBe(old([VA, RECIPIENT, '100.25', 'USD', 'rent']));
  });

  it('tells apart memos UTF-8 storage would merge (lone surrogates), and a memo from none', () => {
    const prints = ['\ud800', '\udc00', '\ufffd', '', undefined].map((m) =>
      partnerPayoutFingerprint(request(m)),
    );
    expect(new Set(prints).size).toBe(prints.length);
  });
});

describe('the stored request', () => {
  it.each([undefined, 'plain', 'nul \u0000 and \ud83d lone, "quoted" \\ and \n'])(
    'comes back as submitted (memo %j), and the partner body equals the first send',
    (memo) => {
      const row = rowOf(request(memo));
      expect(row.memo === null || !row.memo.includes('\u0000')).toBe(true);
      expect(storedRequest(row)).toEqual(request(memo));
      expect(partnerBody(storedRequest(row).body)).toEqual(partnerBody(request(memo).body));
    },
  );

  it('drops an empty extra_info from the partner body (the same request as none)', () => {
    expect(partnerBody({ ...request().body, extra_info: {} })).not.toHaveProperty('extra_info');
  });
});

describe('differingField', () => {
  it.each([
    [{ ...request(), virtualAccountId: RECIPIENT }, 'virtualAccountId'],
    [{ ...request(), body: { ...request().body, recipient_id: VA } }, 'recipient_id'],
    [{ ...request(), body: { ...request().body, amount: '100.26' } }, 'amount'],
    [{ ...request(), body: { ...request().body, currency: 'EUR' } }, 'currency'],
    [request('other'), 'extra_info.memo'],
  ])('names the field of another request under the same key (%#: %s)', (other, field) => {
    expect(differingField(rowOf(request()), other)).toBe(field);
  });
});

describe('storageProblems', () => {
  it('accepts a request its columns hold', () => {
    expect(storageProblems('8d3c2b9e-1f7a-4c55-9e0a-2b6f3d1c4e5a', request('memo'))).toEqual([]);
  });

  it('names every field the table could not hold as it is, and the key', () => {
    const bad = {
      virtualAccountId: 'v'.repeat(65),
      body: { recipient_id: '', amount: '1'.repeat(33), currency: 42, extra_info: { memo: 7 } },
    } as unknown as PartnerOutboxPayoutRequest;
    expect(storageProblems('k'.repeat(65), bad).map((p) => p.field)).toEqual([
      'idempotencyKey',
      'virtualAccountId',
      'recipient_id',
      'amount',
      'currency',
      'extra_info.memo',
    ]);
    expect(storageProblems(undefined, undefined as never).map((p) => p.field)).toEqual([
      'idempotencyKey',
      'virtualAccountId',
      'recipient_id',
      'amount',
      'currency',
    ]);
  });
});

describe('storageProblems, what the module would refuse when it sends', () => {
  const KEY = '8d3c2b9e-1f7a-4c55-9e0a-2b6f3d1c4e5a';

  it('names a key that is not a UUID v4 (spec 4.7), so no row is stored for it', () => {
    for (const key of ['order-1', 'line\r\nbreak', '8d3c2b9e-1f7a-1c55-9e0a-2b6f3d1c4e5a'])
      expect(storageProblems(key, request()).map((p) => p.field)).toEqual(['idempotencyKey']);
  });

  it('names ids that are not UUIDs, an amount that is not a positive decimal string, a memo past 255', () => {
    const bad = {
      virtualAccountId: 'va-1',
      body: { recipient_id: 'bob', amount: '1e3', currency: 'USD', extra_info: { memo: 'm'.repeat(256) } },
    };
    expect(storageProblems(KEY, bad).map((p) => p.field)).toEqual([
      'virtualAccountId',
      'recipient_id',
      'amount',
      'extra_info.memo',
    ]);
    for (const amount of ['0', '0.00', '-1.00', '1.005', ' 1.00'])
      expect(storageProblems(KEY, { ...request(), body: { ...request().body, amount } })).toEqual([
        expect.objectContaining({ field: 'amount' }),
      ]);
    expect(storageProblems(KEY, request('m'.repeat(255)))).toEqual([]);
  });
});

describe('payoutMismatch', () => {
  const payout = (fields: Partial<PartnerPayout>) =>
    ({
      payoutId: 'p1',
      virtualAccountId: null,
      recipientId: RECIPIENT,
      amount: '100.25',
      currency: 'USD',
      ...fields,
    }) as PartnerPayout;

  it('accepts the request’s payout: the same amount written otherwise, fields GET leaves out', () => {
    expect(payoutMismatch(rowOf(request()), payout({ amount: '100.250', currency: 'usd' }))).toBeNull();
    expect(payoutMismatch(rowOf(request()), payout({ recipientId: null, amount: null }))).toBeNull();
  });

  it.each([
    [{ virtualAccountId: RECIPIENT }, 'virtual account'],
    [{ recipientId: VA }, 'recipient_id'],
    [{ amount: '100.26' }, 'amount'],
    [{ currency: 'EUR' }, 'currency'],
  ])('names what differs in another request’s payout (%j)', (fields, field) => {
    expect(payoutMismatch(rowOf(request()), payout(fields))).toContain(field);
  });
});
