import { PartnerHttpClient } from '../http/partner-http.client';
import { encodePathSegment } from '../http/url.util';
import type { PartnerCallOptions } from '../models/common.model';
import type {
  CreatePartnerRecipientInput,
  ListPartnerRecipientsParams,
  PartnerRecipient,
  PartnerRecipientList,
} from '../models/recipient.model';
import { metadataFilterToQueryParams, validateMetadata } from '../validation/metadata.validator';
import { asRecord, requireId, send } from './resource.util';

function toRecipient(body: unknown): PartnerRecipient {
  const b = asRecord(body);
  // Bare recipient (provider-facts), tolerate { recipient } / { data } wrappers.
  const r = typeof b.recipient_id === 'string' ? b : asRecord(b.recipient ?? b.data);
  return { metadata: {}, ...r } as PartnerRecipient;
}

/** Saved recipients (spec 2.3, 4.4, provider-facts "Recipients"). */
export class PartnerRecipientsService {
  constructor(private readonly http: PartnerHttpClient) {}

  /** GET /v1/recipients?user_id&metadata[key]=value (spec 4.4). The filter is checked before I/O. */
  async list(
    userId: string,
    params: ListPartnerRecipientsParams = {},
    options?: PartnerCallOptions,
  ): Promise<PartnerRecipientList> {
    const query: Record<string, string> = { user_id: requireId(userId, 'userId') };
    for (const [k, v] of metadataFilterToQueryParams(params.metadata)) query[k] = v;
    const res = await send<unknown>(this.http, { method: 'GET', path: '/v1/recipients', query }, options);
    const b = asRecord(res.data);
    const recipients = (Array.isArray(b.recipients) ? b.recipients : []).map(toRecipient);
    return { recipients, total: typeof b.total === 'number' ? b.total : recipients.length };
  }

  /**
   * POST /v1/recipients (Idempotency-Key). 201 when created, 202 when the same recipient already
   * existed (provider-facts): both return the recipient; `onMeta` tells them apart (meta.status).
   */
  async create(input: CreatePartnerRecipientInput, options?: PartnerCallOptions): Promise<PartnerRecipient> {
    requireId(input?.user_id, 'user_id');
    if (input.metadata !== undefined) validateMetadata(input.metadata, 'metadata');
    const res = await send<unknown>(
      this.http,
      { method: 'POST', path: '/v1/recipients', body: input },
      options,
    );
    return toRecipient(res.data);
  }

  /** Like create(), also saying whether it was new (201) or already existed (202). */
  async createOrGet(
    input: CreatePartnerRecipientInput,
    options?: PartnerCallOptions,
  ): Promise<{ recipient: PartnerRecipient; created: boolean }> {
    let status = 0;
    const recipient = await this.create(input, {
      ...options,
      onMeta: (m) => {
        status = m.status;
        options?.onMeta?.(m);
      },
    });
    return { recipient, created: status !== 202 };
  }

  /** GET /v1/recipients/{recipient_id}: 404 for another client's or a missing one. */
  async get(recipientId: string, options?: PartnerCallOptions): Promise<PartnerRecipient> {
    const id = encodePathSegment(requireId(recipientId, 'recipientId'));
    const res = await send<unknown>(this.http, { method: 'GET', path: `/v1/recipients/${id}` }, options);
    return toRecipient(res.data);
  }
}
