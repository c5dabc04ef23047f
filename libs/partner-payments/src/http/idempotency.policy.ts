import { randomUUID } from 'node:crypto';

/**
 * Routes that take an Idempotency-Key (spec 4.7 and issue 2): replaying the key returns the
 * original result instead of a second resource (provider-facts "Errors, limits").
 */
const IDEMPOTENT_POST_ROUTES: readonly RegExp[] = [
  /^\/v1\/users$/,
  /^\/v1\/recipients$/,
  /^\/v1\/virtual-accounts$/,
  /^\/v1\/virtual-accounts\/[^/]+\/payout$/,
  /^\/v1\/users\/[^/]+\/verifications$/,
  /^\/v1\/virtual-accounts\/[^/]+\/liquidation-address$/,
];

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
