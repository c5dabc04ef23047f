import { canonicalPartnerStatus } from './status.util';
import type { PartnerAddress, PartnerOffsetPageParams, PartnerOpenString } from './common.model';
import type { PartnerMetadata } from './metadata.model';

/** provider-facts "Users": CREATED, VERIFYING, VERIFIED, REJECTED; ACTIVE and REVIEW also seen. */
export type PartnerUserStatus = PartnerOpenString<
  'CREATED' | 'VERIFYING' | 'VERIFIED' | 'REJECTED' | 'ACTIVE' | 'REVIEW'
>;

export interface PartnerAssociatedPerson {
  person_id?: string;
  first_name?: string;
  last_name?: string;
  email?: string;
  [key: string]: unknown;
}

/** POST /v1/users body (provider-facts "Users"). Unknown keys pass through. */
export interface CreatePartnerUserInput {
  type: 'individual' | 'business';
  first_name?: string;
  last_name?: string;
  business_legal_name?: string;
  email?: string;
  /** Missing it gets the user rejected (provider-facts). */
  source_of_funds: string;
  metadata?: PartnerMetadata;
  associated_persons?: PartnerAssociatedPerson[];
  address?: PartnerAddress;
  [key: string]: unknown;
}

/** PUT /v1/users/{id} body (PATCH is refused with 403). */
export type UpdatePartnerUserInput = Partial<CreatePartnerUserInput>;

/** A user (sub-client). Fields beyond these are "not shown" (spec 2.5) and kept in `raw`. */
export interface PartnerUser {
  /** `user_id`, or `id` in some versions (provider-facts). */
  userId: string;
  /** UPPERCASE as received, compared case-insensitively. */
  status: PartnerUserStatus | null;
  type: string | null;
  email: string | null;
  metadata: PartnerMetadata;
  raw: Record<string, unknown>;
}

/** GET /v1/users query: offset paging (provider-facts); filters beyond paging are passed through. */
export interface ListPartnerUsersParams extends PartnerOffsetPageParams {
  status?: string;
  email?: string;
}

/** POST /v1/users/{id}/liveness-link: one entry per beneficial owner (spec 4.7). */
export interface PartnerLivenessLink {
  /** The provider reference id, echoed as person_reference_id in user.liveness_completed (spec 6.4.2). */
  referenceId: string | null;
  url: string | null;
  raw: Record<string, unknown>;
}

export const TERMINAL_USER_STATUSES: readonly string[] = ['REJECTED'];

/** REJECTED is terminal (spec 3.3); unknown values are non-terminal (provider-facts). */
export function isTerminalUserStatus(status: string | null | undefined): boolean {
  return typeof status === 'string' && TERMINAL_USER_STATUSES.includes(canonicalPartnerStatus(status) ?? '');
}
