import type { PayoutRecord } from '../../server/payout-state.types';
import { matchingPayouts, type PayoutListFilter } from './payout-list-query.util';

const payout = (id: string, created_at: string, status = 'CREATED', clientUuid = 'c1'): PayoutRecord =>
  ({ payout_id: id, clientUuid, user_id: 'u1', status, created_at }) as PayoutRecord;
const filter = (extra: Partial<PayoutListFilter> = {}): PayoutListFilter => ({
  clientUuid: 'c1',
  userId: null,
  status: null,
  fromDate: null,
  toDate: null,
  ...extra,
});
const ids = (list: PayoutRecord[]) => list.map((p) => p.payout_id);

describe('matchingPayouts (GET /v1/payouts filters, evidence §6)', () => {
  it('filters by account and dates, and answers the same as a scan after payouts are added or reset', () => {
    const store = new Map<string, PayoutRecord>();
    for (const p of [
      payout('a', '2026-11-20T10:00:00Z'),
      payout('b', '2026-11-21T10:00:00Z'),
      payout('x', '2026-11-21T11:00:00Z', 'CREATED', 'c2'),
    ])
      store.set(p.payout_id, p);
    const since21 = filter({ fromDate: '2026-11-21' });
    expect(ids(matchingPayouts(store, since21))).toEqual(['b']);
    expect(matchingPayouts(store, since21)).toBe(matchingPayouts(store, since21)); // kept between pages
    store.set('c', payout('c', '2026-11-22T09:00:00Z'));
    expect(ids(matchingPayouts(store, since21))).toEqual(['b', 'c']);
    // A reset followed by as many new payouts is not mistaken for the old store.
    store.clear();
    for (const p of [
      payout('d', '2026-11-21T01:00:00Z'),
      payout('e', '2026-11-21T02:00:00Z'),
      payout('f', '2026-11-23T00:00:00Z'),
      payout('g', '2026-11-23T00:00:00Z'),
    ])
      store.set(p.payout_id, p);
    expect(ids(matchingPayouts(store, since21))).toEqual(['d', 'e', 'f', 'g']);
  });

  it('a status filter sees statuses move (never kept)', () => {
    const store = new Map([['a', payout('a', '2026-11-20T10:00:00Z', 'PENDING')]]);
    expect(ids(matchingPayouts(store, filter({ status: 'PENDING' })))).toEqual(['a']);
    store.get('a')!.status = 'COMPLETED';
    expect(ids(matchingPayouts(store, filter({ status: 'PENDING' })))).toEqual([]);
  });
});
