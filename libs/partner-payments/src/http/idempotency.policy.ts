import { randomUUID } from 'node:crypto';

/**
 * Writes the partner de-duplicates on Idempotency-Key: spec 4.7's four POSTs. Replaying the key
 * with the same body answers the original (evidence §4 [T3r DRIFT-34]), so a retry after the
 * request may have reached the partner cannot make a second resource.
 */
const DEDUPLICATED_POST_ROUTES: readonly RegExp[] = [
  /^\/v1\/users$/,
  /^\/v1\/recipients$/,
  /^\/v1\/virtual-accounts$/,
  /^\/v1\/virtual-accounts\/[^/]+\/payout$/,
];

/**
 * Writes that take a key but are not known to be de-duplicated; the key is sent, and the write is
 * never replayed automatically once it may have reached the partner:
 * - verifications: the docs list them as keyed, yet a reused key with another body made a second
 *   verification (evidence §3 [T3r DRIFT-16]);
 * - liquidation-address create: listed as keyed by the same docs (evidence §5 [D for-ai-agents]),
 *   and no replay was ever observed. A second address would forward every deposit sent to it, so
 *   after a timeout or a reset the caller reads the account's addresses (listLiquidationAddresses)
 *   before creating again, rather than the client re-sending on a guess;
 * - crypto payouts and quotations (routes the contract does not list).
 */
const KEYED_ONLY_POST_ROUTES: readonly RegExp[] = [
  /^\/v1\/users\/[^/]+\/verifications$/,
  /^\/v1\/virtual-accounts\/[^/]+\/liquidation-address$/,
  // evidence §11 N35, N36: sent with a key at the partner; whether it de-duplicates is not recorded.
  /^\/v1\/payouts$/,
  /^\/v1\/quotations$/,
];

const cleanPath = (path: string): string => path.split('?')[0].replace(/\/+$/, '');

/** Whether the partner de-duplicates this write on its Idempotency-Key. */
export function isDeduplicatedRoute(method: string, path: string): boolean {
  if (method.toUpperCase() !== 'POST') return false;
  const clean = cleanPath(path);
  return DEDUPLICATED_POST_ROUTES.some((re) => re.test(clean));
}

/** Whether the client sends a generated Idempotency-Key (UUID v4) on this call when the caller passes none. */
export function requiresIdempotencyKey(method: string, path: string): boolean {
  if (isDeduplicatedRoute(method, path)) return true;
  return method.toUpperCase() === 'POST' && KEYED_ONLY_POST_ROUTES.some((re) => re.test(cleanPath(path)));
}

/** A fresh UUID v4 (spec 8: Idempotency-Key is a UUID v4). */
export function newIdempotencyKey(): string {
  return randomUUID();
}

/**
 * The key for one logical call, decided once before the first attempt, so every retry re-sends
 * the same key (stripe-php#637 shows what a key per attempt does):
 * the caller's key wins; otherwise a fresh one on the listed routes; otherwise none.
 */
export function resolveIdempotencyKey(method: string, path: string, callerKey?: string): string | null {
  if (callerKey !== undefined && callerKey !== '') return callerKey;
  return requiresIdempotencyKey(method, path) ? newIdempotencyKey() : null;
}

/**
 * Whether a replay of this request is de-duplicated by the server, so a retry after the request may
 * have been applied cannot make a second resource (a second payout, a second uploaded file).
 * Only the de-duplicating routes qualify. A key sent on any other write (verifications, an upload,
 * a PATCH of answers, a PUT) proves nothing: verifications made a second one on a reused key
 * (evidence §3 [T3r DRIFT-16]) and uploads add files on every call (spec 4.2 rule 1), so such
 * writes are never retried once they may have reached the partner.
 */
export function replayIsDeduplicated(method: string, path: string, idempotencyKey: string | null): boolean {
  return idempotencyKey !== null && idempotencyKey !== '' && isDeduplicatedRoute(method, path);
}
