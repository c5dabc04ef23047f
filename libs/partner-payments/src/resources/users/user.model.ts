import { canonicalPartnerStatus } from '../shared/status.util';
import type { PartnerOffsetPageParams, PartnerOpenString } from '../shared/common.model';
import type { PartnerMetadata } from '../shared/metadata.model';

export type {
  CreatePartnerBusinessUserInput,
  CreatePartnerIndividualUserInput,
  CreatePartnerLivenessLinkInput,
  CreatePartnerUserInput,
  CreatePartnerVerificationInput,
  PartnerAssociatedPersonInput,
  PartnerBusinessAccountPurpose,
  PartnerIdentifyingInformationInput,
  PartnerIndividualAccountPurpose,
  PartnerUserAdditionalInfo,
  PartnerUserDocumentInput,
  UpdatePartnerUserInput,
} from './user-input.model';
export { BUSINESS_ONLY_ACCOUNT_PURPOSES, INDIVIDUAL_ONLY_ACCOUNT_PURPOSES } from './user-input.model';

/**
 * evidence §3 [D known-limitations]: gate on `status` (CREATED, VERIFYING, REVIEW, VERIFIED,
 * REJECTED; ACTIVE also seen). Unknown values are non-terminal. The partner's sandbox stops in
 * REVIEW: VERIFIED needs its staff (DRIFT-23).
 */
export type PartnerUserStatus = PartnerOpenString<
  'CREATED' | 'VERIFYING' | 'REVIEW' | 'VERIFIED' | 'REJECTED' | 'ACTIVE'
>;

/**
 * An address on read: the partner renames the flat request fields (address_street → street_line_1,
 * address_state → subdivision, address_zip_code → postal_code) inside `residential_address`
 * (individual) or `registered_address` (business) [D known-limitations][T3r DRIFT-4].
 */
export interface PartnerUserAddress {
  streetLine1: string | null;
  streetLine2: string | null;
  city: string | null;
  subdivision: string | null;
  postalCode: string | null;
  /** As sent (alpha-3 expected; the partner echoes alpha-2 unchanged too, DRIFT-5). */
  country: string | null;
}

/**
 * One entry of `eligible_products[]` [T2s Users.cs][T1 REVISION-DOCS §3.3]. Key on `productCode`:
 * the partner has answered `product_id` as the code (Jul) and as an opaque UUID (May, evidence
 * §11 C3 [T3raw users/03]).
 */
export interface PartnerEligibleProduct {
  /** Opaque: a UUID or the code, whichever the partner sent (`product_code` when it sent none). */
  productId: string;
  /**
   * The readable key, a free string: `usa-virtual-accounts`, `usa-virtual-accounts-act`, the
   * undocumented `-zenus`... (`product_id` when the partner sent no code).
   */
  productCode: string;
  productName: string | null;
  eligible: boolean;
  /**
   * Fields this product still needs, e.g. `occupation`, `identifying_information:file_board_minutes`:
   * the entry's own list or, when the entry has none (evidence §11 C3), the top-level
   * `missing_fields` under this product's code.
   */
  missingFields: string[];
  /** Replaces `missingFields` when no data can make the product eligible; show it first. */
  unsupportedReason: string | null;
}

/** A user (sub-client) as the partner answers it, normalised. Everything received stays in `raw`. */
export interface PartnerUser {
  /** The partner's `id` (evidence §10); `user_id` is read too. */
  userId: string;
  type: 'individual' | 'business' | null;
  /** Gate on this one, compared case-insensitively (isTerminalUserStatus); null when absent. */
  status: PartnerUserStatus | null;
  /** The legacy lowercase field (`unverified`, ...); it can disagree with `status`: do not gate on it. */
  verificationStatus: string | null;
  verificationMode: string | null;
  externalId: string | null;
  email: string | null;
  eligibleProducts: PartnerEligibleProduct[];
  /**
   * Missing fields by product code. GET adds `general` (the union of every product: never add it to
   * one product's list) [T1s §3.11 B6]; the create and PUT answers may carry the dict without it,
   * `null`, or nothing (evidence §3 [T2s Users.cs], §11 C4 [T3raw users/03, 15, 23]). null when
   * absent or null.
   */
  missingFields: Record<string, string[]> | null;
  /**
   * On the create and PUT answers, not on GET (DRIFT-14, evidence §11 C5): true once one product
   * had nothing missing. null when absent.
   */
  verificationTriggered: boolean | null;
  /**
   * The create answer of a `verification_mode: "verification_link"` user carries the link to send
   * the user to (evidence §11 N18 [T4 log §4]). null otherwise.
   */
  verificationLink: string | null;
  /** On an individual. */
  residentialAddress: PartnerUserAddress | null;
  /** On a business. */
  registeredAddress: PartnerUserAddress | null;
  associatedPersons: Record<string, unknown>[];
  metadata: PartnerMetadata;
  /** Parsed leniently (ISO 8601, or `2026-05-28 00:52:49.879228+00`); null when absent or unreadable. */
  createdAt: Date | null;
  updatedAt: Date | null;
  raw: Record<string, unknown>;
}

/**
 * The PUT answer: the user plus what the update did (evidence §3 [T3r DRIFT-15]); the partner has
 * also answered it without `warnings` (evidence §11 C5 [T3raw users/15]): then `[]`.
 */
export interface PartnerUserUpdateResult extends PartnerUser {
  /** Fields that actually changed; `[]` for an empty body. */
  updatedFields: string[];
  /** Whether a sensitive change (name, birth date, address, SSN, document) triggered re-verification. */
  requiresReverification: boolean;
  /** Non-fatal problems, e.g. a document that failed to upload. */
  warnings: string[];
}

/** POST /v1/users/{id}/verifications answer (201): it changes nothing on the user (DRIFT-17). */
export interface PartnerVerification {
  id: string;
  verificationLink: string | null;
  status: string | null;
  raw: Record<string, unknown>;
}

/** GET /v1/users query: offset paging [T2s Common.cs]; filters beyond paging are passed through. */
export interface ListPartnerUsersParams extends PartnerOffsetPageParams {
  status?: string;
  email?: string;
}

/**
 * POST /v1/users/{id}/liveness-link: one entry per beneficial owner (spec 4.7), valid 7 days; the
 * same link again on a repeat call unless `redirect` changes (evidence §3 [T1 KiraApiClient]).
 */
export interface PartnerLivenessLink {
  /** The provider reference id, echoed as person_reference_id in user.liveness_completed (spec 6.4.2). */
  referenceId: string | null;
  url: string | null;
  expiresAt: Date | null;
  raw: Record<string, unknown>;
}

export const TERMINAL_USER_STATUSES: readonly string[] = ['REJECTED'];

/** REJECTED is terminal (spec 3.3); unknown values are non-terminal (evidence §3). */
export function isTerminalUserStatus(status: string | null | undefined): boolean {
  return typeof status === 'string' && TERMINAL_USER_STATUSES.includes(canonicalPartnerStatus(status) ?? '');
}
