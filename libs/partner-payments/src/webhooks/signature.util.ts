import { createHmac, timingSafeEqual } from 'node:crypto';
import type { PartnerSignatureFailureReason } from './webhook.errors';

/** The header every delivery carries (spec 6.1.3). */
export const PARTNER_SIGNATURE_HEADER = 'x-signature-sha256';

/** SHA-256 digest length in bytes: a valid header is exactly 64 hex characters. */
const DIGEST_BYTES = 32;
const HEX = /^[0-9a-fA-F]*$/;

export type PartnerSignatureVerification =
  | {
      ok: true;
      /** index in `secrets` of the secret that matched (rotation, provider-facts) */ secretIndex: number;
    }
  | { ok: false; reason: PartnerSignatureFailureReason; message: string };

/** Hex HMAC-SHA256 of the raw bytes keyed with the secret, as the partner computes it (spec 6.1.3). */
export function computePartnerSignature(rawBody: Buffer | string, secret: string | Buffer): string {
  return createHmac('sha256', secret).update(rawBody).digest('hex');
}

/**
 * Verifies x-signature-sha256 against the raw bytes exactly as received (spec 6.1.3): hex-decode,
 * length check, constant-time comparison, any of several secrets (rotation: the old secret keeps
 * signing for about a minute, provider-facts). Secrets are case-sensitive: they are used as given.
 * Never pass re-serialised JSON here; the bytes must be the ones that came over the wire.
 */
export function verifyPartnerSignature(
  rawBody: Buffer | string,
  header: string | string[] | undefined | null,
  secrets: ReadonlyArray<string | Buffer>,
): PartnerSignatureVerification {
  // Strings are the configured form; Buffers allow binary keys (e.g. the RFC 4231 vectors).
  const usable = secrets.filter((s) => (typeof s === 'string' || Buffer.isBuffer(s)) && s.length > 0);
  if (usable.length === 0) {
    return fail('no_secret_configured', 'No webhook secret is configured (webhooks.secrets)');
  }
  // Repeated headers: join them as Express does, so two values are refused as not hex (not "missing").
  const value = Array.isArray(header) ? header.join(', ') : header;
  if (value === undefined || value === null || value.trim() === '') {
    return fail('missing_header', `Missing ${PARTNER_SIGNATURE_HEADER} header`);
  }
  const hex = value.trim();
  // Buffer.from(x, 'hex') silently stops at the first non-hex character: check the text first.
  if (!HEX.test(hex)) return fail('not_hex', `${PARTNER_SIGNATURE_HEADER} is not hexadecimal`);
  if (hex.length % 2 !== 0)
    return fail('odd_length', `${PARTNER_SIGNATURE_HEADER} has an odd number of hex digits`);
  const received = Buffer.from(hex, 'hex');
  if (received.length !== DIGEST_BYTES) {
    return fail(
      'wrong_length',
      `${PARTNER_SIGNATURE_HEADER} must be ${DIGEST_BYTES * 2} hex digits (HMAC-SHA256), got ${hex.length}`,
    );
  }
  const body = typeof rawBody === 'string' ? Buffer.from(rawBody, 'utf8') : rawBody;
  let matched = -1;
  // Every secret is tried (no early exit) so timing does not tell which one matched.
  usable.forEach((secret, index) => {
    const expected = createHmac('sha256', secret).update(body).digest();
    if (timingSafeEqual(expected, received) && matched === -1) matched = index;
  });
  if (matched === -1) return fail('mismatch', `${PARTNER_SIGNATURE_HEADER} does not match the body`);
  return { ok: true, secretIndex: secrets.indexOf(usable[matched]) };
}

/** A short, loggable fingerprint of a signature header: never log it in full. */
export function redactSignature(header: string | string[] | undefined | null): string {
  const value = Array.isArray(header) ? header.join(',') : (header ?? '');
  if (value.length === 0) return '<none>';
  return `${value.slice(0, 6)}…(${value.length} chars)`;
}

function fail(reason: PartnerSignatureFailureReason, message: string): PartnerSignatureVerification {
  return { ok: false, reason, message };
}
