import { randomUUID } from 'node:crypto';

/**
 * Routes that take an Idempotency-Key (spec 4.7 and issue 2). All of them get one; only those not
 * in NOT_DEDUPLICATED_ROUTES return the original result for a replayed key.
 */
const IDEMPOTENT_POST_ROUTES: readonly RegExp[] = [
  /^\/v1\/users$/,
  /^\/v1\/recipients$/,
  /^\/v1\/virtual-accounts$/,
  /^\/v1\/virtual-accounts\/[^/]+\/payout$/,
  /^\/v1\/users\/[^/]+\/verifications$/,
  /^\/v1\/virtual-accounts\/[^/]+\/liquidation-address$/,
];

/**
 * Keyed routes the partner does not de-duplicate: POST /v1/users/{id}/verifications made a second
 * verification for a reused key with another body (evidence §3 [T3r DRIFT-16]), so the key proves
 * nothing about a replay and the call is never sent again once it may have reached the partner.
 */
const NOT_DEDUPLICATED_ROUTES: readonly RegExp[] = [/^\/v1\/users\/[^/]+\/verifications$/];

export function requiresIdempotencyKey(method: string, path: string): boolean {
  if (method.toUpperCase() !== 'POST') return false;
  const clean = path.split('?')[0].replace(/\/+$/, '');
  return IDEMPOTENT_POST_ROUTES.some((re) => re.test(clean));
}

/** A fresh UUID v4 (spec 8: Idempotency-Key is a UUID v4). */
export function newIdempotencyKey(): string {
  return randomUUID();
}

/**
 * The key for one logical call, decided once before the first attempt (DESIGN; stripe-php#637):
 * the caller's key wins; otherwise a fresh one on the listed routes; otherwise none.
 */
export function resolveIdempotencyKey(method: string, path: string, callerKey?: string): string | null {
  if (callerKey !== undefined && callerKey !== '') return callerKey;
  return requiresIdempotencyKey(method, path) ? newIdempotencyKey() : null;
}

/**
 * Whether a replay of this request is de-duplicated by the server, so a retry after the request may
 * have been applied cannot make a second resource (a second payout, a second uploaded file).
 * Only the listed routes de-duplicate on Idempotency-Key (spec 4.7). A key the caller sends on any
 * other route (an upload, a PATCH of answers, a PUT) is still sent, but proves nothing: the upload
 * route adds files on every call (spec 4.2 rule 1), so such writes are never retried once sent.
 */
export function replayIsDeduplicated(method: string, path: string, idempotencyKey: string | null): boolean {
  if (idempotencyKey === null || idempotencyKey === '' || !requiresIdempotencyKey(method, path)) return false;
  const clean = path.split('?')[0].replace(/\/+$/, '');
  return !NOT_DEDUPLICATED_ROUTES.some((re) => re.test(clean));
}
