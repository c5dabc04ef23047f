/**
 * The route template of a partner path, e.g. '/v1/payouts/9b2…' -> '/v1/payouts/{payout_id}', for
 * metric labels and span names: an id in a label would make one time series per payout (unbounded
 * cardinality) and put customer identifiers in the monitoring system. Every segment that is not a
 * documented literal of the API (spec 4) is an identifier; it is named after the collection before
 * it, or `{id}`. A path the table does not know (a host app's own call) keeps only its literals.
 */
const LITERALS = new Set([
  'v1',
  'auth',
  'users',
  'liveness-link',
  'verifications',
  'recipients',
  'virtual-accounts',
  'deposits',
  'payout',
  'preview',
  'liquidation-address',
  'balance',
  'simulate-deposit',
  'payouts',
  'rfis',
  'items',
  'documents',
  'ubo-link',
  'clients',
  'versioning',
  'upgrade',
  'countries',
  'banks',
]);

/** What the identifier after a collection is called in the contract's path templates. */
const PARAM_AFTER: Record<string, string> = {
  users: '{user_id}',
  recipients: '{recipient_id}',
  'virtual-accounts': '{virtual_account_id}',
  deposits: '{deposit_id}',
  payouts: '{payout_id}',
  rfis: '{rfi_id}',
  items: '{item_id}',
  documents: '{document_id}',
  clients: '{client_uuid}',
};

/** One call asks for its path's template several times (its spans, its events): remembered, bounded. */
const recent = new Map<string, string>();
const RECENT_LIMIT = 512;

/** `path` without its query string (the client strips it before calling). */
export function partnerRouteTemplate(path: string): string {
  const known = recent.get(path);
  if (known !== undefined) return known;
  const segments = path.split('/');
  const out = segments.map((segment, i) => {
    if (segment === '' || LITERALS.has(segment)) return segment;
    return PARAM_AFTER[segments[i - 1]] ?? '{id}';
  });
  const template = out.join('/');
  if (recent.size >= RECENT_LIMIT) recent.clear();
  recent.set(path, template);
  return template;
}
