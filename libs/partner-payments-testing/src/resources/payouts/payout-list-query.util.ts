import type { PayoutRecord } from '../../server/payout-state.types';

/** GET /v1/payouts's filters (evidence §6), the account's own payouts only. */
export interface PayoutListFilter {
  clientUuid: string;
  userId: string | null;
  /** UPPERCASE. */
  status: string | null;
  fromDate: string | null;
  toDate: string | null;
}

interface CachedMatches {
  size: number;
  first: PayoutRecord | undefined;
  matches: PayoutRecord[];
}

/** Per store: the matches of recent filters. A few keys suffice (a reconciliation pass uses one). */
const CACHE = new WeakMap<Map<string, PayoutRecord>, Map<string, CachedMatches>>();
const MAX_CACHED_FILTERS = 16;

const matches = (p: PayoutRecord, f: PayoutListFilter): boolean =>
  p.clientUuid === f.clientUuid &&
  (!f.userId || p.user_id === f.userId) &&
  (!f.status || p.status === f.status) &&
  (!f.fromDate || p.created_at >= f.fromDate) &&
  (!f.toDate || p.created_at <= f.toDate);

/**
 * The stored payouts the filter selects, in creation order. Without a status filter the answer
 * depends only on fields that never change (account, user, creation date) and on which payouts
 * exist, and payouts are only ever added (or all cleared by a reset): it is kept while the store
 * holds as many payouts as when it was built and the same first one. Reconciliation load tests read
 * 100,000 payouts page by page; scanning them all for every page made the simulator, not the app
 * under test, the bottleneck. A status filter (statuses move) always scans.
 */
export function matchingPayouts(store: Map<string, PayoutRecord>, filter: PayoutListFilter): PayoutRecord[] {
  const scan = () => [...store.values()].filter((p) => matches(p, filter));
  if (filter.status) return scan();
  let cached = CACHE.get(store);
  if (!cached) CACHE.set(store, (cached = new Map()));
  const key = JSON.stringify([filter.clientUuid, filter.userId, filter.fromDate, filter.toDate]);
  const first = store.values().next().value;
  const hit = cached.get(key);
  if (hit && hit.size === store.size && hit.first === first) return hit.matches;
  if (cached.size >= MAX_CACHED_FILTERS) cached.clear();
  const entry = { size: store.size, first, matches: scan() };
  cached.set(key, entry);
  return entry.matches;
}
