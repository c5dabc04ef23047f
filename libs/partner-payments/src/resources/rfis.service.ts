import { PartnerHttpClient } from '../http/partner-http.client';
import { encodePathSegment } from '../http/url.util';
import type { PartnerCallOptions, PartnerOffsetPageParams, PartnerPage } from '../models/common.model';
import type { Rfi, RfiAnswerInput, RfiItem } from '../models/rfi.model';
import { validateRfiAnswers } from '../validation/rfi-answer.validator';
import {
  asRecord,
  checkPageParams,
  iterateOffsetPages,
  requireId,
  send,
  toOffsetPage,
} from './resource.util';

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

function toRfi(body: unknown): Rfi {
  const b = asRecord(body);
  const r = typeof b.id === 'string' || typeof b.rfi_id === 'string' ? b : asRecord(b.rfi ?? b.data);
  return {
    ...r,
    id: (r.id ?? r.rfi_id) as string,
    items: Array.isArray(r.items) ? (r.items as RfiItem[]) : [],
  } as Rfi;
}

/**
 * RFIs (spec 2.1, 3.1, 4.2, 4.3; provider-facts "RFIs"). Every call sends X-Api-Version 2026-06-01
 * (apiVersionOverrides.rfis): the RFI routes exist only under that version.
 */
export class PartnerRfisService {
  constructor(private readonly http: PartnerHttpClient) {}

  /** (weak) GET /v1/rfis?user_id&limit&offset, limit at most 100. */
  async list(params: ListRfisParams = {}, options?: PartnerCallOptions): Promise<PartnerPage<Rfi>> {
    checkPageParams(params.limit, params.offset);
    const res = await send<unknown>(
      this.http,
      { method: 'GET', path: '/v1/rfis', query: { ...params }, area: 'rfis' },
      options,
    );
    return toOffsetPage(res.data, ['data', 'rfis', 'items'], toRfi);
  }

  iterate(params: Omit<ListRfisParams, 'offset'> = {}, options?: PartnerCallOptions): AsyncGenerator<Rfi> {
    const { limit, ...rest } = params;
    return iterateOffsetPages((offset, l) => this.list({ ...rest, limit: l, offset }, options), limit ?? 100);
  }

  /** (weak) GET /v1/rfis/{rfi_id}, items included. A withdrawn RFI is a 404 (spec 3.2). */
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
}
