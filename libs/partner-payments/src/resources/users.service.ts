import { PartnerHttpClient } from '../http/partner-http.client';
import { encodePathSegment } from '../http/url.util';
import type { PartnerCallOptions, PartnerPage } from '../models/common.model';
import type { PartnerMetadata } from '../models/metadata.model';
import type {
  CreatePartnerUserInput,
  ListPartnerUsersParams,
  PartnerLivenessLink,
  PartnerUser,
  UpdatePartnerUserInput,
} from '../models/user.model';
import { validateMetadata } from '../validation/metadata.validator';
import {
  asRecord,
  checkPageParams,
  iterateOffsetPages,
  requireId,
  send,
  toOffsetPage,
} from './resource.util';

/** Normalises a user: the id arrives as `user_id`, or `id` in some versions (provider-facts). */
export function toPartnerUser(body: unknown): PartnerUser {
  const raw = asRecord(body);
  const id = raw.user_id ?? raw.id;
  if (typeof id !== 'string' || id === '') throw new TypeError('user body carries neither user_id nor id');
  const str = (v: unknown): string | null => (typeof v === 'string' ? v : null);
  return {
    userId: id,
    status: str(raw.status),
    type: str(raw.type),
    email: str(raw.email),
    metadata: asRecord(raw.metadata) as PartnerMetadata,
    raw,
  };
}

function toLivenessLinks(body: unknown): PartnerLivenessLink[] {
  const b = asRecord(body);
  const list = Array.isArray(body)
    ? body
    : ([b.data, b.links, b.liveness_links, b.items].find(Array.isArray) ?? [body]);
  return (list as unknown[]).map((entry) => {
    const raw = asRecord(entry);
    const ref = raw.person_reference_id ?? raw.reference_id ?? raw.provider_reference_id ?? raw.person_id;
    const url = raw.liveness_url ?? raw.url ?? raw.link ?? raw.liveness_link;
    return {
      referenceId: typeof ref === 'string' ? ref : null,
      url: typeof url === 'string' ? url : null,
      raw,
    };
  });
}

/** Users / sub-clients (spec 4.7, provider-facts "Users"). */
export class PartnerUsersService {
  constructor(private readonly http: PartnerHttpClient) {}

  /** POST /v1/users (Idempotency-Key generated unless passed). Metadata checked before I/O (spec 2.5). */
  async create(input: CreatePartnerUserInput, options?: PartnerCallOptions): Promise<PartnerUser> {
    if (input.metadata !== undefined) validateMetadata(input.metadata, 'metadata');
    const res = await send<unknown>(this.http, { method: 'POST', path: '/v1/users', body: input }, options);
    return toPartnerUser(res.data);
  }

  /** GET /v1/users: offset paging, limit 1..100 (provider-facts). */
  async list(
    params: ListPartnerUsersParams = {},
    options?: PartnerCallOptions,
  ): Promise<PartnerPage<PartnerUser>> {
    checkPageParams(params.limit, params.offset);
    const res = await send<unknown>(
      this.http,
      { method: 'GET', path: '/v1/users', query: { ...params } },
      options,
    );
    return toOffsetPage(res.data, ['data', 'users'], toPartnerUser);
  }

  /** Every user, page after page. */
  iterate(
    params: Omit<ListPartnerUsersParams, 'offset'> = {},
    options?: PartnerCallOptions,
  ): AsyncGenerator<PartnerUser> {
    const { limit, ...rest } = params;
    return iterateOffsetPages((offset, l) => this.list({ ...rest, limit: l, offset }, options), limit ?? 100);
  }

  /** GET /v1/users/{id}. */
  async get(userId: string, options?: PartnerCallOptions): Promise<PartnerUser> {
    const id = encodePathSegment(requireId(userId, 'userId'));
    const res = await send<unknown>(this.http, { method: 'GET', path: `/v1/users/${id}` }, options);
    return toPartnerUser(res.data);
  }

  /** PUT /v1/users/{id} (PATCH is refused with 403, provider-facts). */
  async update(
    userId: string,
    input: UpdatePartnerUserInput,
    options?: PartnerCallOptions,
  ): Promise<PartnerUser> {
    const id = encodePathSegment(requireId(userId, 'userId'));
    if (input.metadata !== undefined) validateMetadata(input.metadata, 'metadata');
    const res = await send<unknown>(
      this.http,
      { method: 'PUT', path: `/v1/users/${id}`, body: input },
      options,
    );
    return toPartnerUser(res.data);
  }

  /** POST /v1/users/{id}/liveness-link: one entry per beneficial owner (spec 4.7). */
  async createLivenessLink(
    userId: string,
    body: Record<string, unknown> = {},
    options?: PartnerCallOptions,
  ): Promise<PartnerLivenessLink[]> {
    const id = encodePathSegment(requireId(userId, 'userId'));
    const res = await send<unknown>(
      this.http,
      { method: 'POST', path: `/v1/users/${id}/liveness-link`, body },
      options,
    );
    return toLivenessLinks(res.data);
  }

  /** POST /v1/users/{id}/verifications (Idempotency-Key, issue 2). Body and answer not shown: passed through. */
  async createVerification(
    userId: string,
    body: Record<string, unknown> = {},
    options?: PartnerCallOptions,
  ): Promise<Record<string, unknown>> {
    const id = encodePathSegment(requireId(userId, 'userId'));
    const res = await send<unknown>(
      this.http,
      { method: 'POST', path: `/v1/users/${id}/verifications`, body },
      options,
    );
    return asRecord(res.data);
  }
}
