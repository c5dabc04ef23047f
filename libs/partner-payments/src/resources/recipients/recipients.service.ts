import { PartnerHttpClient } from '../../http/partner-http.client';
import { encodePathSegment } from '../../http/url.util';
import { PartnerLocalValidationError } from '../../errors/partner.errors';
import type { PartnerCallOptions } from '../shared/common.model';
import type {
  CreatePartnerRecipientInput,
  ListPartnerRecipientsParams,
  PartnerRecipient,
  PartnerRecipientList,
} from './recipient.model';
import { metadataFilterToQueryParams } from '../shared/metadata.rules';
import { validateRecipientInput } from './recipient.rules';
import { UUID_PATTERN } from '../shared/validation.util';
import { asRecord, requireId, send } from '../shared/resource.util';

/** The partner sends `recipient_id` (evidence §4); an `id`, or a `{ recipient }`/`{ data }` wrapper, is read too. */
function toRecipient(body: unknown): PartnerRecipient {
  const b = asRecord(body);
  const r =
    typeof b.recipient_id === 'string' || typeof b.id === 'string' ? b : asRecord(b.recipient ?? b.data);
  const recipientId = typeof r.recipient_id === 'string' ? r.recipient_id : r.id;
  return { metadata: {}, ...r, recipient_id: recipientId } as PartnerRecipient;
}

/** A UUID, checked before I/O: the partner answers a malformed id with 400 (evidence §4 [D get-a-recipient]). */
function requireUuid(value: unknown, field: string): string {
  const id = requireId(value, field);
  if (!UUID_PATTERN.test(id)) throw new PartnerLocalValidationError([{ field, message: 'must be a UUID' }]);
  return id;
}

/** Saved recipients (spec 2.3, 4.4; evidence §4). There is no delete: the partner has no such route. */
export class PartnerRecipientsService {
  constructor(private readonly http: PartnerHttpClient) {}

  /**
   * GET /v1/recipients?user_id&metadata[key]=value (spec 4.4) → `{ recipients, total }`. The user
   * must exist (404 otherwise); the filter is checked before I/O.
   */
  async list(
    userId: string,
    params: ListPartnerRecipientsParams = {},
    options?: PartnerCallOptions,
  ): Promise<PartnerRecipientList> {
    const query: Record<string, string> = { user_id: requireUuid(userId, 'userId') };
    for (const [k, v] of metadataFilterToQueryParams(params.metadata)) query[k] = v;
    const res = await send<unknown>(this.http, { method: 'GET', path: '/v1/recipients', query }, options);
    const b = asRecord(res.data);
    const recipients = (Array.isArray(b.recipients) ? b.recipients : []).map(toRecipient);
    return { recipients, total: typeof b.total === 'number' ? b.total : recipients.length };
  }

  /**
   * POST /v1/recipients (Idempotency-Key, generated once and reused on every retry). The body is
   * checked against the rail's rules before any I/O (PartnerLocalValidationError naming each
   * field); the user need not be VERIFIED. The answer is the partner's recipient, unmasked.
   * Same key and same body: 201 with the original recipient (202 is tolerated too). Same key and
   * another body: PartnerIdempotencyConflictError, never retried.
   * A SWIFT answer carries bank_address.state and postal_code as "" (evidence §4 [T3r DRIFT-32]);
   * get() returns them.
   */
  async create(input: CreatePartnerRecipientInput, options?: PartnerCallOptions): Promise<PartnerRecipient> {
    validateRecipientInput(input);
    const res = await send<unknown>(
      this.http,
      { method: 'POST', path: '/v1/recipients', body: input },
      options,
    );
    return toRecipient(res.data);
  }

  /**
   * Like create(), also saying whether it was new. The partner answers 201 both to a new recipient
   * and to a replay of the same key and body (evidence §4 [T3r DRIFT-34]); only the 202 "already
   * existed" older documents describe (never observed) sets `created: false`.
   */
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

  /** GET /v1/recipients/{recipient_id}: 404 for a missing one or another client's. */
  async get(recipientId: string, options?: PartnerCallOptions): Promise<PartnerRecipient> {
    const id = encodePathSegment(requireUuid(recipientId, 'recipientId'));
    const res = await send<unknown>(this.http, { method: 'GET', path: `/v1/recipients/${id}` }, options);
    return toRecipient(res.data);
  }
}
