import type { IncomingMessage } from 'node:http';

/** POST /rfis/{rfi_id}/items/{item_id}/documents (rfis/rfi-upload.service.ts). */
const RFI_UPLOAD_PATH = /^\/rfis\/[^/?#]+\/items\/[^/?#]+\/documents\/?(?:[?#].*)?$/i;

/**
 * The app's multipart routes: their bodies are files streamed to the partner, bounded by the route
 * itself (its own size limit, from Content-Length, before a byte is read), so the JSON-only rule
 * and the 100 kB limit of the app's own bodies do not apply to them.
 */
export function isUploadRoute(req: IncomingMessage): boolean {
  return req.method === 'POST' && RFI_UPLOAD_PATH.test(req.url ?? '');
}
