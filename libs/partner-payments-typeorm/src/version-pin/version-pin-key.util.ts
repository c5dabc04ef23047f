import { createHash } from 'node:crypto';

/**
 * The pin row's key for an account identifier, never the identifier itself: the client id is
 * half of the POST /auth pair (spec 4.1), and the docs call the client UUID "your client_id" too
 * (evidence C10). `acct:` and 40 hex characters of SHA-256 under a fixed domain prefix: the same
 * identifier gives the same key on every replica and after every restart (a salt kept elsewhere
 * could be lost with the pin), and the key names no one.
 */
export function partnerVersionPinKey(identifier: string): string {
  const digest = createHash('sha256')
    .update(`partner-payments/api-version-pin\u0000${identifier}`)
    .digest('hex');
  return `acct:${digest.slice(0, 40)}`;
}
