import { PartnerHttpClient } from '../../http/partner-http.client';
import { encodePathSegment } from '../../http/url.util';
import type { PartnerCallOptions, PartnerOffsetPageParams, PartnerPage } from '../shared/common.model';
import type { Rfi, RfiAnswerInput, RfiItem, RfiListEntry, RfiParentFields } from './rfi.model';
import FormData from 'form-data';
import type { Readable } from 'node:stream';
import { DEFAULT_STREAM_BODY_TIMEOUT_MS, fetchLink } from '../../http/stream-body.util';
import { PartnerLocalValidationError } from '../../errors/partner.errors';
import { validateRfiAnswers } from './rfi-answer.rules';
import { appendUploadParts, uploadPartsReplayable } from './upload/upload-form.util';
import type { UploadSource } from './upload/upload-source.util';
import { prepareUploadFiles } from './upload/upload.rules';
import { fileNameFromDisposition } from './upload/file-name.util';
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

/** evidence §7: a presigned, minutes-long link to one RFI document (a bearer credential: never store or log it). */
export interface RfiDocumentLink {
  downloadUrl: string;
  expiresAt: string | null;
}

/** Deadlines of a document download (see fetchDocumentLink), in milliseconds. */
export interface RfiDownloadDeadlines {
  /** Until the link's answer head arrives. Default 60_000. */
  timeoutMs?: number;
  /** Longest wait for the next body bytes; the stream then fails with PartnerTimeoutError. Default timeoutMs. */
  idleTimeoutMs?: number;
  /** The whole body, from the head; the stream then fails with PartnerTimeoutError. Default 600_000; Infinity for none. */
  bodyTimeoutMs?: number;
}

/** A stored RFI file, as a stream (never buffered whole). */
export interface RfiDocumentDownload {
  stream: Readable;
  /**
   * From Content-Disposition: the name the file downloads as (spec 2.2), made safe to use as a file
   * name: the last path segment only, without control or invisible characters.
   */
  fileName: string | null;
  contentType: string | null;
  contentLength: number | null;
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
export class PartnerRfisService {
  constructor(private readonly http: PartnerHttpClient) {}

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
   * GET /v1/rfis/{rfi_id}/items/{item_id}/documents/{document_id}: the partner answers JSON
   * `{download_url, expires_at}`, a presigned link that lasts minutes (evidence §7 [T1 KiraApiClient]).
   * It is a bearer credential: do not store or log it. spec 7.3: 400 malformed ids, 404 no such file.
   */
  async getDocumentLink(
    rfiId: string,
    itemId: string,
    documentId: string,
    options?: PartnerCallOptions,
  ): Promise<RfiDocumentLink> {
    const rfi = encodePathSegment(requireId(rfiId, 'rfiId'));
    const item = encodePathSegment(requireId(itemId, 'itemId'));
    const doc = encodePathSegment(requireId(documentId, 'documentId'));
    const res = await send<unknown>(
      this.http,
      { method: 'GET', path: `/v1/rfis/${rfi}/items/${item}/documents/${doc}`, area: 'rfis' },
      options,
    );
    const b = asRecord(res.data);
    const inner = typeof b.download_url === 'string' ? b : asRecord(b.data);
    if (typeof inner.download_url !== 'string')
      throw new TypeError(
        'the document answer carries no download_url (evidence §7: {download_url, expires_at})',
      );
    return {
      downloadUrl: inner.download_url,
      expiresAt: typeof inner.expires_at === 'string' ? inner.expires_at : null,
    };
  }

  /**
   * The stored file, streamed (never buffered whole): asks for the link (getDocumentLink), then
   * fetches it with a plain GET that carries no partner credential (no x-api-key, no bearer: the
   * link is presigned, and an object store refuses a second auth mechanism) and is never logged.
   * A refused link (expired, tampered) is a PartnerApiError with the store's status.
   */
  async downloadDocument(
    rfiId: string,
    itemId: string,
    documentId: string,
    options?: PartnerCallOptions & RfiDownloadDeadlines,
  ): Promise<RfiDocumentDownload> {
    const link = await this.getDocumentLink(rfiId, itemId, documentId, options);
    return this.fetchDocumentLink(link, {
      timeoutMs: options?.timeoutMs,
      idleTimeoutMs: options?.idleTimeoutMs,
      bodyTimeoutMs: options?.bodyTimeoutMs,
    });
  }

  /**
   * DELETE /v1/rfis/{rfi_id}/items/{item_id}/documents/{document_id} (evidence §7 [T1
   * KiraApiClient]). Removing the last file of an answered item is refused with 422 ("The last
   * file cannot be removed"); a closed RFI with 409. Not keyed: never retried once sent.
   */
  async deleteDocument(
    rfiId: string,
    itemId: string,
    documentId: string,
    options?: PartnerCallOptions,
  ): Promise<void> {
    const rfi = encodePathSegment(requireId(rfiId, 'rfiId'));
    const item = encodePathSegment(requireId(itemId, 'itemId'));
    const doc = encodePathSegment(requireId(documentId, 'documentId'));
    await send<unknown>(
      this.http,
      { method: 'DELETE', path: `/v1/rfis/${rfi}/items/${item}/documents/${doc}`, area: 'rfis' },
      options,
    );
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

  /**
   * Streams a link from getDocumentLink, without partner credentials (see downloadDocument). The
   * answer's head must come within `timeoutMs` (default 60 s); the body then fails with a
   * PartnerTimeoutError after `idleTimeoutMs` without a byte (default `timeoutMs`) or when it has
   * not ended `bodyTimeoutMs` after the head (default 10 minutes, the link's lifetime [T3r
   * DRIFT-24]; Infinity for none).
   */
  async fetchDocumentLink(
    link: RfiDocumentLink,
    options: RfiDownloadDeadlines = {},
  ): Promise<RfiDocumentDownload> {
    const headTimeoutMs = options.timeoutMs ?? 60_000;
    const { stream, headers } = await fetchLink(link.downloadUrl, {
      headTimeoutMs,
      idleTimeoutMs: options.idleTimeoutMs ?? headTimeoutMs,
      bodyTimeoutMs: options.bodyTimeoutMs ?? DEFAULT_STREAM_BODY_TIMEOUT_MS,
    });
    const length = Number(headers.get('content-length'));
    return {
      stream,
      fileName: fileNameFromDisposition(headers.get('content-disposition')),
      contentType: headers.get('content-type'),
      contentLength: Number.isFinite(length) && headers.get('content-length') !== null ? length : null,
    };
  }
}
