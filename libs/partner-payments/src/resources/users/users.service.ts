import { PartnerHttpClient } from '../../http/partner-http.client';
import { encodePathSegment } from '../../http/url.util';
import type { PartnerCallOptions, PartnerPage } from '../shared/common.model';
import {
  toLivenessLinks,
  toPartnerUser,
  toPartnerUserUpdateResult,
  toPartnerVerification,
} from './user-mapper.util';
import type {
  CreatePartnerLivenessLinkInput,
  CreatePartnerUserInput,
  CreatePartnerVerificationInput,
  ListPartnerUsersParams,
  PartnerLivenessLink,
  PartnerUser,
  PartnerUserUpdateResult,
  PartnerVerification,
  UpdatePartnerUserInput,
} from './user.model';
import {
  collectLivenessLinkErrors,
  collectVerificationErrors,
  validateCreateUserInput,
  validateUpdateUserInput,
} from './user-input.rules';
import { throwIfAny } from '../shared/validation.util';
import { checkPageParams, iterateOffsetPages, requireId, send, toOffsetPage } from '../shared/resource.util';

export { toPartnerUser } from './user-mapper.util';

/** Users / sub-clients (spec 3.3, 4.7; evidence §3). Every body is checked before I/O. */
export class PartnerUsersService {
  constructor(private readonly http: PartnerHttpClient) {}

  /**
   * POST /v1/users (Idempotency-Key generated unless passed). The answer says CREATED with
   * `verificationTriggered`; the partner then moves the user CREATED → VERIFYING → REVIEW and its
   * staff decide VERIFIED or REJECTED later: listen to user.status_changed, never assume VERIFIED.
   */
  async create(input: CreatePartnerUserInput, options?: PartnerCallOptions): Promise<PartnerUser> {
    validateCreateUserInput(input);
    const res = await send<unknown>(this.http, { method: 'POST', path: '/v1/users', body: input }, options);
    return toPartnerUser(res.data);
  }

  /** GET /v1/users: offset paging, limit 1..100 (above it the partner answers a bare 500, DRIFT-10). */
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
    return iterateOffsetPages(
      (offset, l) => this.list({ ...rest, limit: l, offset }, options),
      limit ?? 100,
      'GET /v1/users',
    );
  }

  /** GET /v1/users/{id}: `missingFields` by product plus `general`; no `verificationTriggered` (DRIFT-14). */
  async get(userId: string, options?: PartnerCallOptions): Promise<PartnerUser> {
    const id = encodePathSegment(requireId(userId, 'userId'));
    const res = await send<unknown>(this.http, { method: 'GET', path: `/v1/users/${id}` }, options);
    return toPartnerUser(res.data);
  }

  /**
   * PUT /v1/users/{id} (evidence §3: PUT, not PATCH; strict). Only the fields sent are written;
   * `type`, `external_id` and unknown keys are refused before I/O, as the partner refuses them.
   * Pass `userType` to also check `account_purpose` against that type's values.
   */
  async update(
    userId: string,
    input: UpdatePartnerUserInput,
    options?: PartnerCallOptions & { userType?: 'individual' | 'business' },
  ): Promise<PartnerUserUpdateResult> {
    const id = encodePathSegment(requireId(userId, 'userId'));
    validateUpdateUserInput(input, options?.userType);
    const res = await send<unknown>(
      this.http,
      { method: 'PUT', path: `/v1/users/${id}`, body: input },
      options,
    );
    return toPartnerUserUpdateResult(res.data);
  }

  /**
   * POST /v1/users/{id}/liveness-link: one entry per beneficial owner (spec 4.7), valid 7 days. A
   * repeat call answers the same link unless `redirect` changes; the partner answers 422
   * (PartnerValidationError) while the user's verification has not been triggered (evidence §3).
   */
  async createLivenessLink(
    userId: string,
    input: CreatePartnerLivenessLinkInput = {},
    options?: PartnerCallOptions,
  ): Promise<PartnerLivenessLink[]> {
    const id = encodePathSegment(requireId(userId, 'userId'));
    throwIfAny(collectLivenessLinkErrors(input));
    const res = await send<unknown>(
      this.http,
      { method: 'POST', path: `/v1/users/${id}/liveness-link`, body: input },
      options,
    );
    return toLivenessLinks(res.data);
  }

  /**
   * POST /v1/users/{id}/verifications → 201 `{ id, verification_link, status }`; it does not change
   * the user (DRIFT-17). The partner does not de-duplicate it (the same key with another body made
   * a second one, DRIFT-16), so it is never sent again automatically once it may have reached the
   * partner: after a lost answer, look before you call again.
   */
  async createVerification(
    userId: string,
    input: CreatePartnerVerificationInput,
    options?: PartnerCallOptions,
  ): Promise<PartnerVerification> {
    const id = encodePathSegment(requireId(userId, 'userId'));
    throwIfAny(collectVerificationErrors(input));
    const res = await send<unknown>(
      this.http,
      { method: 'POST', path: `/v1/users/${id}/verifications`, body: input },
      options,
    );
    return toPartnerVerification(res.data);
  }
}
