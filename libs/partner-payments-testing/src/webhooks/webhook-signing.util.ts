import { createHmac, timingSafeEqual } from 'node:crypto';

/** The header every delivery carries (spec 6.1.3). */
export const SIGNATURE_HEADER = 'x-signature-sha256';

/**
 * spec 6.1.3: hex-encoded HMAC-SHA256 of the raw request body, keyed with the webhook secret.
 * Sign the exact bytes you send: a re-serialised body would not verify.
 */
export function signPartnerWebhook(rawBody: string | Buffer, secret: string | Buffer): string {
  return createHmac('sha256', secret).update(rawBody).digest('hex');
}

/**
 * Verifies a signature against any of several secrets (a rotated secret keeps signing for about a
 * minute, evidence §9 [T1 REVISION-DOCS §2.4]), hex-decoded, length-checked and compared in constant
 * time. Empty secrets ('' or an empty Buffer) are ignored; with none left it answers false.
 */
export function verifyPartnerWebhook(
  rawBody: string | Buffer,
  signature: string | undefined,
  secrets: string | Buffer | readonly (string | Buffer)[],
): boolean {
  if (!signature || !/^[0-9a-f]+$/i.test(signature) || signature.length % 2 !== 0) return false;
  const given = Buffer.from(signature, 'hex');
  const list: readonly (string | Buffer)[] =
    typeof secrets === 'string' || Buffer.isBuffer(secrets) ? [secrets] : secrets;
  // HMAC accepts an empty key, and anyone can sign with it: a receiver started with
  // `process.env.X ?? ''` would accept forged deliveries. The module's verifier refuses them the same
  // way (libs/partner-payments signature.util.ts: no usable secret, no_secret_configured, 401).
  const usable = list.filter((s) => (typeof s === 'string' || Buffer.isBuffer(s)) && s.length > 0);
  for (const secret of usable) {
    const expected = Buffer.from(signPartnerWebhook(rawBody, secret), 'hex');
    if (expected.length === given.length && timingSafeEqual(expected, given)) return true;
  }
  return false;
}
