import type { RequestHandler, Response } from 'express';
import type { SandboxContext } from '../../server/sandbox-context.util';
import { contentDisposition, type DocumentLinkSigner } from './document-link.util';

const deny = (res: Response, status: number, code: string, message: string) =>
  void res
    .status(status)
    .type('application/xml')
    .send(`<Error><Code>${code}</Code><Message>${message}</Message></Error>`);

/** GET /__files/:documentId?expires&signature: the object store behind the links (no partner auth). */
export function documentLinkHandler(ctx: SandboxContext, signer: DocumentLinkSigner): RequestHandler {
  return (req, res) => {
    if (req.get('authorization') !== undefined)
      return deny(res, 400, 'InvalidArgument', 'Only one auth mechanism allowed');
    const documentId = String(req.params.documentId).toLowerCase();
    const expires = Number(req.query.expires);
    const signature = String(req.query.signature ?? '');
    if (!Number.isInteger(expires) || !signer.verify(documentId, expires, signature))
      return deny(res, 403, 'SignatureDoesNotMatch', 'The request signature does not match');
    if (Date.now() > expires) return deny(res, 403, 'AccessDenied', 'Request has expired');
    for (const rfi of ctx.store.rfis.values()) {
      const bytes = rfi.files.get(documentId);
      const doc = rfi.items.flatMap((i) => i.documents).find((d) => d.document_id === documentId);
      if (bytes && doc) {
        res.setHeader('Content-Type', doc.mime_type);
        res.setHeader('Content-Disposition', contentDisposition(doc.file_name));
        res.status(200).end(bytes);
        return;
      }
    }
    deny(res, 404, 'NoSuchKey', 'The specified key does not exist');
  };
}
