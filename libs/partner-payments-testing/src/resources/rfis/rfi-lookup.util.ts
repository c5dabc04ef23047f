import type { Request, Response } from 'express';
import { isUuid } from '../../server/ids.util';
import { sendError, sendNotFound, sendValidation } from '../../server/http-errors.util';
import { accountOf, type SandboxContext } from '../../server/sandbox-context.util';
import type { RfiRecord } from '../../server/state.types';

const CLOSED = ['resolved', 'not_resolved'];

/**
 * The caller's RFI, or answers: 400 malformed id (7.3), 404 another client's / withdrawn / missing,
 * 409 closed when `open` is required (3.2, 7.3, 7.4).
 */
export function findRfi(
  ctx: SandboxContext,
  req: Request,
  res: Response,
  open: boolean,
): RfiRecord | undefined {
  const rfiId = String(req.params.rfiId);
  const itemId = req.params.itemId === undefined ? undefined : String(req.params.itemId);
  const docId = req.params.documentId === undefined ? undefined : String(req.params.documentId);
  const bad = [
    ['rfi_id', rfiId],
    ['item_id', itemId],
    ['document_id', docId],
  ].filter(([, v]) => v !== undefined && !isUuid(v));
  if (bad.length) {
    sendValidation(
      res,
      bad.map(([field]) => ({ field: String(field), message: 'must be a UUID' })),
    );
    return undefined;
  }
  const rfi = ctx.store.rfis.get(rfiId.toLowerCase());
  if (!rfi || rfi.clientUuid !== accountOf(res).clientUuid || rfi.status === 'withdrawn') {
    sendNotFound(res, 'RFI');
    return undefined;
  }
  if (open && CLOSED.includes(rfi.status)) {
    sendError(res, 409, 'conflict', `The RFI is ${rfi.status} and no longer accepts answers`);
    return undefined;
  }
  return rfi;
}
