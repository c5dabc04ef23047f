import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { Request } from 'express';
import type { RfiDocument } from '../../server/rfi-state.types';

/**
 * evidence §7 [T1 KiraApiClient, AnswerRfiService]: the document route answers JSON
 * `{download_url, expires_at}`, a presigned bearer-style link that lasts minutes. The sandbox signs
 * its own: HMAC-SHA256 over the document id and the expiry, with a key made per sandbox instance.
 * The link serves the bytes without partner credentials; like a presigned object-store URL it
 * refuses a request that also carries an Authorization header (one auth mechanism only), so a client
 * that forwards its bearer token to the link fails here as it would there.
 */
export const DOCUMENT_LINK_TTL_MS = 5 * 60 * 1000;
export const DOCUMENT_LINK_PATH = '/__files';

export class DocumentLinkSigner {
  private readonly key = randomBytes(32);

  sign(documentId: string, expiresAt: number): string {
    return createHmac('sha256', this.key).update(`${documentId}.${expiresAt}`).digest('hex');
  }

  verify(documentId: string, expiresAt: number, signature: string): boolean {
    const expected = Buffer.from(this.sign(documentId, expiresAt), 'hex');
    const given = Buffer.from(/^[0-9a-f]{64}$/.test(signature) ? signature : '', 'hex');
    return given.length === expected.length && timingSafeEqual(given, expected);
  }
}

/** The link for one stored document, on the host the caller reached. */
export function documentLink(
  signer: DocumentLinkSigner,
  req: Request,
  doc: RfiDocument,
  now = Date.now(),
): { download_url: string; expires_at: string } {
  const expires = now + DOCUMENT_LINK_TTL_MS;
  const signature = signer.sign(doc.document_id, expires);
  const origin = `${req.protocol}://${req.get('host') ?? '127.0.0.1'}`;
  return {
    download_url: `${origin}${DOCUMENT_LINK_PATH}/${doc.document_id}?expires=${expires}&signature=${signature}`,
    expires_at: new Date(expires).toISOString(),
  };
}

/**
 * spec 2.2: the file downloads under its sanitised name. A header value cannot carry raw non-ASCII
 * (Node refuses it), so an ASCII fallback goes in `filename` and the exact name in RFC 6266/5987
 * `filename*=UTF-8''...`.
 */
export function contentDisposition(fileName: string): string {
  const ascii = fileName.replace(/[^\x20-\x7e]/g, '_').replace(/["\\]/g, '');
  const encoded = encodeURIComponent(fileName).replace(
    /['()*]/g,
    (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`,
  );
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encoded}`;
}
