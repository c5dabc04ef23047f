import { encodePathSegment } from '../../http/url.util';
import type { PartnerCallOptions, PartnerOffsetPageParams, PartnerPage } from '../shared/common.model';
import type { Rfi, RfiAnswerInput, RfiItem, RfiListEntry, RfiParentFields } from './rfi.model';
import FormData from 'form-data';
import { PartnerLocalValidationError } from '../../errors/partner.errors';
import { validateRfiAnswers } from './rfi-answer.rules';
import { appendUploadParts, uploadPartsReplayable } from './upload/upload-form.util';
import type { UploadSource } from './upload/upload-source.util';
import { prepareUploadFiles } from './upload/upload.rules';
import { PartnerRfiDocuments } from './rfi-documents.service';
import {
  asRecord,
  checkPageParams,
  iterateOffsetPages,
  requireId,
  send,
  toOffsetPage,
} from '../shared/resource.util';

export interface ListRfisParams extends PartnerOffsetPageParams {
  user_id?: string;
}

export interface AnswerRfiItemsOptions extends PartnerCallOptions {
  /**
   * The RFI's items, to check answers against answer_type/answer_spec before I/O. When omitted and
   * `fetchItems` is true, the client reads the RFI first. Default: only shape checks.
   */
  knownItems?: readonly RfiItem[];
  fetchItems?: boolean;
}

export interface UploadRfiDocumentsOptions extends PartnerCallOptions {
  /**
   * The target item, to check mime_types, max_files (existing + new) and the answer_type before I/O.
   * When omitted and `fetchItem` is true, the client reads the RFI first. Default: only the
   * item-independent rules (1-20 files, 30 MB each, 100 MB per call, bytes match the declared type).
   */
  item?: RfiItem;
  fetchItem?: boolean;
}

/** The parent record of an RFI answer (bare, or under `rfi` / `data`), with `id` set; `items` as sent. */
function rfiRecord(body: unknown): RfiParentFields & { items?: unknown } {
  const b = asRecord(body);
  const r = typeof b.id === 'string' || typeof b.rfi_id === 'string' ? b : asRecord(b.rfi ?? b.data);
  return { ...r, id: (r.id ?? r.rfi_id) as string } as RfiParentFields & { items?: unknown };
}

/** GET /v1/rfis/{rfi_id}: the detail carries the items (evidence §7). */
function toRfi(body: unknown): Rfi {
  const r = rfiRecord(body);
  return { ...r, items: Array.isArray(r.items) ? (r.items as RfiItem[]) : [] };
}

/**
 * A GET /v1/rfis entry, without `items` (evidence §7 [T1 KiraApiClient, AnswerRfiService]: list
 * entries may lack them, re-read the detail). Dropped even when sent, so a list entry never passes
 * for an RFI with no items (`[]`) and an app cannot come to depend on items the partner may omit.
 */
function toRfiListEntry(body: unknown): RfiListEntry {
  const { items: _dropped, ...entry } = rfiRecord(body);
  return entry;
}

/**
 * RFIs (spec 2.1, 3.1, 4.2, 4.3; provider-facts "RFIs"). Every call sends X-Api-Version 2026-06-01
 * (apiVersionOverrides.rfis): the RFI routes exist only under that version.
 */
export class PartnerRfisService extends PartnerRfiDocuments {
  /**
   * (weak) GET /v1/rfis?user_id&limit&offset, limit at most 100. RFIs are global to the integrator:
   * filter by user_id (evidence §7). The entries carry no items (`items` is always undefined):
   * the partner's list entries may lack them (evidence §7 [T1 KiraApiClient, AnswerRfiService]), so
   * re-read each RFI you need the items of with `get(rfiId)`.
   */
  async list(params: ListRfisParams = {}, options?: PartnerCallOptions): Promise<PartnerPage<RfiListEntry>> {
    checkPageParams(params.limit, params.offset);
    const res = await send<unknown>(
      this.http,
      { method: 'GET', path: '/v1/rfis', query: { ...params }, area: 'rfis' },
      options,
    );
    return toOffsetPage(res.data, ['data', 'rfis', 'items'], toRfiListEntry);
  }

  /** Every entry of `list`, page after page; like `list`, without items (evidence §7: use `get(rfiId)`). */
  iterate(
    params: Omit<ListRfisParams, 'offset'> = {},
    options?: PartnerCallOptions,
  ): AsyncGenerator<RfiListEntry> {
    const { limit, ...rest } = params;
    return iterateOffsetPages(
      (offset, l) => this.list({ ...rest, limit: l, offset }, options),
      limit ?? 100,
      'GET /v1/rfis',
    );
  }

  /**
   * (weak) GET /v1/rfis/{rfi_id}, items included (the detail is where they are, evidence §7). A
   * withdrawn RFI is a 404 (spec 3.2).
   */
  async get(rfiId: string, options?: PartnerCallOptions): Promise<Rfi> {
    const id = encodePathSegment(requireId(rfiId, 'rfiId'));
    const res = await send<unknown>(
      this.http,
      { method: 'GET', path: `/v1/rfis/${id}`, area: 'rfis' },
      options,
    );
    return toRfi(res.data);
  }

  /**
   * PATCH /v1/rfis/{rfi_id}/items (spec 4.3). Checked before I/O: at least one item, no document
   * item, and (with known items) each answer against its answer_spec. The server is all or nothing
   * (provider-facts); its per-item refusals arrive as PartnerRfiAnswerError.itemErrors.
   */
  async answerItems(
    rfiId: string,
    items: RfiAnswerInput[],
    options: AnswerRfiItemsOptions = {},
  ): Promise<RfiItem[]> {
    const id = encodePathSegment(requireId(rfiId, 'rfiId'));
    const { knownItems, fetchItems, ...callOptions } = options;
    validateRfiAnswers(items, knownItems);
    if (!knownItems && fetchItems) validateRfiAnswers(items, (await this.get(rfiId, callOptions)).items);
    const body = { items: items.map((i) => ({ item_id: i.item_id, answer_value: i.answer_value })) };
    const res = await send<unknown>(
      this.http,
      { method: 'PATCH', path: `/v1/rfis/${id}/items`, body, area: 'rfis' },
      callOptions,
    );
    const b = asRecord(res.data);
    return (Array.isArray(b.items) ? b.items : []) as RfiItem[];
  }

  /**
   * POST /v1/rfis/{rfi_id}/items/{item_id}/documents (spec 4.2): multipart, field `files` repeated.
   * Files come from a path, a stream or a Buffer and are streamed (a 30 MB file is never held whole
   * in memory). Every spec 7.3 422 rule that can be checked locally is checked before any I/O.
   * Uploads add to the item's files, never replace them (4.2 rule 1). Not retried once sent: the
   * call takes no Idempotency-Key, and a caller stream can be sent only once.
   */
  async uploadDocuments(
    rfiId: string,
    itemId: string,
    files: readonly UploadSource[],
    options: UploadRfiDocumentsOptions = {},
  ): Promise<RfiItem> {
    const rfi = encodePathSegment(requireId(rfiId, 'rfiId'));
    const itemPath = encodePathSegment(requireId(itemId, 'itemId'));
    const { item: givenItem, fetchItem, ...callOptions } = options;
    let item = givenItem;
    if (!item && fetchItem) {
      item = (await this.get(rfiId, callOptions)).items.find((i) => i.item_id === itemId);
      // spec 7.3: an item that does not belong to this RFI is a 404 on the server; say it locally.
      if (!item)
        throw new PartnerLocalValidationError([{ field: 'itemId', message: 'is not an item of this RFI' }]);
    }
    const parts = await prepareUploadFiles(files, item);
    const res = await send<unknown>(
      this.http,
      {
        method: 'POST',
        path: `/v1/rfis/${rfi}/items/${itemPath}/documents`,
        area: 'rfis',
        // Streams are opened per attempt; a caller stream can be sent once only.
        multipart: () => appendUploadParts(new FormData(), parts),
        bodyReplayable: uploadPartsReplayable(parts),
      },
      callOptions,
    );
    const b = asRecord(res.data);
    return (typeof b.item === 'object' && b.item !== null ? b.item : b) as RfiItem;
  }

  /**
   * POST /v1/rfis/{rfi_id}/items/{item_id}/ubo-link (2026-06-01, evidence §7 [T1 REVISION-DOCS
   * §3.1]): a verification link for a `ubo_link` item's beneficial owner, `{url, expiresAt}` (about an
   * hour: ask again rather than cache). 422 when the item already has a url, 409 closed, 404 withdrawn.
   */
  async createUboLink(
    rfiId: string,
    itemId: string,
    options?: PartnerCallOptions,
  ): Promise<{ url: string; expiresAt: string | null }> {
    const rfi = encodePathSegment(requireId(rfiId, 'rfiId'));
    const item = encodePathSegment(requireId(itemId, 'itemId'));
    const res = await send<unknown>(
      this.http,
      { method: 'POST', path: `/v1/rfis/${rfi}/items/${item}/ubo-link`, area: 'rfis' },
      options,
    );
    const b = asRecord(res.data);
    const inner = typeof b.url === 'string' ? b : asRecord(b.data);
    if (typeof inner.url !== 'string')
      throw new TypeError('the ubo-link answer carries no url (evidence §7)');
    return { url: inner.url, expiresAt: typeof inner.expires_at === 'string' ? inner.expires_at : null };
  }
}
