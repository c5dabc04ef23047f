import { createHash } from 'node:crypto';

/**
 * The pin row's key for an account identifier, never the identifier itself: with
 * PARTNER_CLIENT_UUID unset it is PARTNER_CLIENT_ID, half of the POST /auth pair (spec 4.1), and
 * the current docs call the UUID "your client_id" too (evidence C10). `acct:` and 40 hex
 * characters of SHA-256 under a fixed domain prefix: the same identifier gives the same key on
 * every replica and after every restart (a salt kept elsewhere could be lost with the pin), and the
 * key names no one. Migration PinAccountDigest1765000000000 keeps its own copy of this rule.
 */
export function pinAccountKey(identifier: string): string {
  const digest = createHash('sha256')
    .update(`partner-payments/api-version-pin\u0000${identifier}`)
    .digest('hex');
  return `acct:${digest.slice(0, 40)}`;
}
