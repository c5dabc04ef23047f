/**
 * Statuses arrive in several casings (spec 6.4.5: flat events lowercase, V2 and the resources
 * UPPERCASE; compare case-insensitively). One canonical form for every status the module reads.
 */
export function canonicalPartnerStatus(value: unknown): string | null {
  if (typeof value !== 'string' || value.trim() === '') return null;
  const upper = value
    .trim()
    .toUpperCase()
    .replace(/[\s-]+/g, '_');
  // The resource spells it CANCELLED (provider-facts); accept the American spelling too.
  return upper === 'CANCELED' ? 'CANCELLED' : upper;
}
