import { createHash, timingSafeEqual } from 'node:crypto';

/** sha256 of a secret: fixed-length, so comparing digests leaks neither content nor length. */
export function secretDigest(secret: string): Buffer {
  return createHash('sha256').update(secret, 'utf8').digest();
}

/**
 * Whether `presented` is one of the configured secrets, in constant time: both
 * sides are hashed (timingSafeEqual needs equal lengths, and a length check would leak the length)
 * and every configured digest is compared, with no early exit, so the time does not tell which
 * entry of a rotation list matched or how far a guess got.
 */
export function matchesAnySecret(presented: string, configuredDigests: readonly Buffer[]): boolean {
  const digest = secretDigest(presented);
  let match = false;
  for (const candidate of configuredDigests) match = timingSafeEqual(digest, candidate) || match;
  return match;
}
