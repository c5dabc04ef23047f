import type { IncomingMessage } from 'node:http';

/** POST /rfis/{rfi_id}/items/{item_id}/documents (rfis/rfi-upload.service.ts), and the console's. */
const RFI_UPLOAD_PATH = /^(?:\/console)?\/rfis\/[^/?#]+\/items\/[^/?#]+\/documents\/?(?:[?#].*)?$/i;

/**
 * The largest body of an upload route: spec 8's 30 MB per file (decimal), for a request carrying one
 * file. bodySizeLimit holds these routes to it (a declared length over it refused unread, a chunked
 * body cut at it), so a request refused before its route (a 401) cannot make the app read more.
 */
export const UPLOAD_BODY_LIMIT_BYTES = 30_000_000;

/**
 * The app's multipart routes: their bodies are files streamed to the partner, so the JSON-only rule
 * and the 100 kB limit of the app's own bodies do not apply to them (UPLOAD_BODY_LIMIT_BYTES does).
 */
export function isUploadRoute(req: IncomingMessage): boolean {
  return req.method === 'POST' && RFI_UPLOAD_PATH.test(req.url ?? '');
}
