import { PartnerHttpClient } from '../../http/partner-http.client';
import { DEFAULT_STREAM_BODY_TIMEOUT_MS, fetchLink } from '../../http/stream-body.util';
import { encodePathSegment } from '../../http/url.util';
import type { Readable } from 'node:stream';
import type { PartnerCallOptions } from '../shared/common.model';
import { asRecord, requireId, send } from '../shared/resource.util';
import { fileNameFromDisposition } from './upload/file-name.util';

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

/**
 * The stored files of RFI items (spec 2.2, 4.2; evidence §7): their presigned links, streamed
 * downloads and deletion. PartnerRfisService extends it, so callers reach them as
 * `rfis.downloadDocument`.
 */
export abstract class PartnerRfiDocuments {
  /** @internal */
  protected readonly http: PartnerHttpClient;

  constructor(http: PartnerHttpClient) {
    this.http = http;
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
