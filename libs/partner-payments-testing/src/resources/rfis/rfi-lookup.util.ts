import type { Request, Response } from 'express';
import { isUuid, nowIso } from '../../server/ids.util';
import { buildFlatEvent } from '../../webhooks/event-builders.util';
import { sendError, sendNotFound, sendValidation } from '../../server/http-errors.util';
import { accountOf, type SandboxContext } from '../../server/sandbox-context.util';
import type { RfiRecord } from '../../server/rfi-state.types';

const CLOSED = ['resolved', 'not_resolved'];

/**
 * Closes an RFI as `status` (resolved or not_resolved) and, with the opt-in `rfiEvents`, sends its
 * event: evidence §9 [T1 REVISION-DOCS §1], rfi.not_resolved data {event_id, rfi_id, user_id,
 * to_status, resolution_reason}, no items (read the RFI again). rfi.resolved is not in the
 * evidence's list (which says the list is incomplete): the same shape.
 */
export function emitRfiClosed(
  ctx: SandboxContext,
  rfi: RfiRecord,
  status: 'resolved' | 'not_resolved',
): void {
  if (!ctx.options.rfiEvents) return;
  const data = {
    rfi_id: rfi.rfi_id,
    user_id: rfi.user_id,
    to_status: status,
    resolution_reason: rfi.resolution_reason,
  };
  ctx.webhooks.emit(rfi.clientUuid, buildFlatEvent(`rfi.${status}`, data));
}

/**
 * evidence §7 [T1 AnswerRfiService]: `due_at` is never extended; once it has passed, an open RFI is
 * closed `not_resolved` with resolution_reason `expired` (what it blocks stays blocked). The
 * sandbox keeps no timer: it closes the RFI when it is next listed, read or answered.
 */
export function expireIfDue(ctx: SandboxContext, rfi: RfiRecord): void {
  if (rfi.status !== 'pending' && rfi.status !== 'answered') return;
  if (!(Date.parse(rfi.due_at) <= Date.now())) return;
  rfi.status = 'not_resolved';
  rfi.resolution_reason = 'expired';
  rfi.updated_at = nowIso();
  emitRfiClosed(ctx, rfi, 'not_resolved');
}

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
  expireIfDue(ctx, rfi);
  if (open && CLOSED.includes(rfi.status)) {
    sendError(res, 409, 'conflict', `The RFI is ${rfi.status} and no longer accepts answers`);
    return undefined;
  }
  return rfi;
}
