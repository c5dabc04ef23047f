import type { Router } from 'express';
import { requireAuth, withVersion } from '../../middleware/auth.middleware';
import { isUuid, nowIso, randomHex } from '../../server/ids.util';
import { sendError, sendNotFound, sendValidation } from '../../server/http-errors.util';
import type { FieldError } from '../metadata.rules';
import { answerProblem } from './rfi-answer.rules';
import { refreshRfiStatus, rfiItemView, rfiListEntryView, rfiView } from './rfi-seed.service';
import { accountOf, requestState, type SandboxContext } from '../../server/sandbox-context.util';
import { handleDocumentDownload, handleDocumentUpload } from './uploads.routes';
import { expireIfDue, findRfi } from './rfi-lookup.util';
import { RFI_VERSION } from '../../server/versioning.util';

/** RFI routes exist only under 2026-06-01 (provider-facts); 401 here carries code invalid_request (7.2). */
export function registerRfiRoutes(router: Router, ctx: SandboxContext): void {
  const guard = [withVersion(ctx, { minimum: RFI_VERSION }), requireAuth(ctx, { rfi: true })];

  router.get('/v1/rfis', ...guard, (req, res) => {
    const q = new URLSearchParams(req.originalUrl.split('?')[1] ?? '');
    const limit = Number(q.get('limit') ?? 20);
    const offset = Number(q.get('offset') ?? 0);
    const errors: FieldError[] = [];
    if (!Number.isInteger(limit) || limit < 1 || limit > 100)
      errors.push({ field: 'limit', message: 'must be 1 to 100' });
    if (!Number.isInteger(offset) || offset < 0)
      errors.push({ field: 'offset', message: 'must be a non-negative integer' });
    const userId = q.get('user_id');
    if (userId !== null && !isUuid(userId)) errors.push({ field: 'user_id', message: 'must be a UUID' });
    if (errors.length) return sendValidation(res, errors);
    const all = [...ctx.store.rfis.values()].filter(
      (r) =>
        r.clientUuid === accountOf(res).clientUuid &&
        r.status !== 'withdrawn' &&
        (!userId || r.user_id === userId.toLowerCase()),
    );
    for (const r of all) expireIfDue(ctx, r);
    // evidence §7: list entries carry no items; GET /v1/rfis/{id} has them.
    res.json({
      rfis: all.slice(offset, offset + limit).map((r) => rfiListEntryView(r)),
      total: all.length,
      limit,
      offset,
    });
  });

  router.get('/v1/rfis/:rfiId', ...guard, (req, res) => {
    const rfi = findRfi(ctx, req, res, false);
    if (rfi) res.json(rfiView(ctx, rfi));
  });

  /** spec 4.3: all or nothing; per-item errors body { errors: [{ item_id, message }] } (7.1). */
  router.patch('/v1/rfis/:rfiId/items', ...guard, (req, res) => {
    const rfi = findRfi(ctx, req, res, true);
    if (!rfi) return;
    const body = requestState(res).body as { items?: unknown } | undefined;
    const entries = body?.items;
    if (!Array.isArray(entries) || entries.length < 1) {
      return sendValidation(res, [{ field: 'items', message: 'must be an array with at least one element' }]);
    }
    const shapeErrors: FieldError[] = [];
    const seen = new Set<string>();
    entries.forEach((e: unknown, i) => {
      const entry = e as { item_id?: unknown; answer_value?: unknown } | null;
      if (typeof entry !== 'object' || entry === null)
        return shapeErrors.push({ field: `items[${i}]`, message: 'must be an object' });
      if (!isUuid(entry.item_id))
        shapeErrors.push({ field: `items[${i}].item_id`, message: 'must be a UUID' });
      else if (seen.has(entry.item_id.toLowerCase()))
        shapeErrors.push({ field: `items[${i}].item_id`, message: 'is named twice' });
      else seen.add(entry.item_id.toLowerCase());
      if (!['string', 'number', 'boolean'].includes(typeof entry.answer_value)) {
        shapeErrors.push({
          field: `items[${i}].answer_value`,
          message: 'must be a string, number or boolean',
        });
      }
    });
    if (shapeErrors.length) return sendValidation(res, shapeErrors);
    const answers = entries as { item_id: string; answer_value: string | number | boolean }[];
    const itemErrors: { item_id: string; message: string }[] = [];
    for (const a of answers) {
      const item = rfi.items.find((i) => i.item_id === a.item_id.toLowerCase());
      const problem = item ? answerProblem(item, a.answer_value) : 'the item does not belong to this RFI';
      if (problem) itemErrors.push({ item_id: a.item_id, message: problem });
    }
    // provider-facts: one bad item refuses the whole call and nothing is saved.
    if (itemErrors.length) return void res.status(422).json({ errors: itemErrors });
    const user = ctx.store.users.get(rfi.user_id);
    const answered = answers.map((a) => {
      const item = rfi.items.find((i) => i.item_id === a.item_id.toLowerCase());
      if (!item) throw new Error('unreachable: item checked above');
      item.answer_value = a.answer_value;
      item.status = 'answered';
      item.review_note = null; // spec 2.1: cleared the next time the item is answered
      item.updated_at = nowIso(); // moves on every round
      if (item.target_key && user) {
        const person = item.subject
          ? user.associated_persons.find((p) => p.person_id === item.subject?.person_id)
          : undefined;
        if (person) person[item.target_key] = a.answer_value;
        else if (!item.subject) user.fields[item.target_key] = a.answer_value;
      }
      return item;
    });
    refreshRfiStatus(rfi);
    res.status(200).json({ items: answered.map((i) => rfiItemView(ctx, rfi, i)) });
  });

  router.post('/v1/rfis/:rfiId/items/:itemId/documents', ...guard, (req, res) =>
    handleDocumentUpload(ctx, req, res),
  );
  router.get('/v1/rfis/:rfiId/items/:itemId/documents/:documentId', ...guard, (req, res) =>
    handleDocumentDownload(ctx, req, res),
  );

  /**
   * evidence §7 [T1 KiraApiClient]: DELETE a document; removing the last file of an answered item
   * → 422 "The last file cannot be removed". The success answer is an open question (evidence
   * question 1): 204. A closed RFI → 409 like every write on it.
   */
  router.delete('/v1/rfis/:rfiId/items/:itemId/documents/:documentId', ...guard, (req, res) => {
    const rfi = findRfi(ctx, req, res, true);
    if (!rfi) return;
    const item = rfi.items.find((i) => i.item_id === String(req.params.itemId).toLowerCase());
    const documentId = String(req.params.documentId).toLowerCase();
    const index = item ? item.documents.findIndex((d) => d.document_id === documentId) : -1;
    if (!item || index < 0) return sendNotFound(res, 'File');
    if (item.status === 'answered' && item.documents.length === 1)
      return sendError(res, 422, 'unprocessable', 'The last file cannot be removed');
    item.documents.splice(index, 1);
    rfi.files.delete(documentId);
    item.updated_at = nowIso();
    rfi.updated_at = item.updated_at;
    res.status(204).end();
  });

  /**
   * evidence §7 [T1 REVISION-DOCS §3.1] (2026-06-01): for a `ubo_link` item whose answer_spec has
   * applicant_id and person_id and no url → 201 `{url, expires_at}` (about an hour; do not cache);
   * 404 another client's or withdrawn, 409 closed, 422 when the item already has a url.
   */
  router.post('/v1/rfis/:rfiId/items/:itemId/ubo-link', ...guard, (req, res) => {
    const rfi = findRfi(ctx, req, res, true);
    if (!rfi) return;
    const item = rfi.items.find((i) => i.item_id === String(req.params.itemId).toLowerCase());
    if (!item) return sendNotFound(res, 'Item');
    const spec = item.answer_spec as { applicant_id?: unknown; person_id?: unknown; url?: unknown };
    if (typeof spec.url === 'string' && spec.url !== '')
      return sendError(res, 422, 'unprocessable', 'The item already has a url');
    if (
      item.answer_type !== 'ubo_link' ||
      typeof spec.applicant_id !== 'string' ||
      typeof spec.person_id !== 'string'
    )
      return sendError(
        res,
        422,
        'unprocessable',
        'The item is not a ubo_link item with applicant_id and person_id',
      );
    const expires = new Date(Date.now() + 3_600_000).toISOString();
    res.status(201).json({
      url: `https://verify.sandbox.example/ubo/${spec.applicant_id}/${spec.person_id}?t=${randomHex(16)}`,
      expires_at: expires,
    });
  });
}
