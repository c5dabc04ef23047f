import type { PartnerOpenString } from '../shared/common.model';
import type { PartnerMetadata } from '../shared/metadata.model';

/**
 * Request bodies of POST /v1/users and PUT /v1/users/{id} with the partner's own field names
 * (evidence §3 [T2s Users.cs][T1s §3.11 B4, 3.14][T3r DRIFT-3]): flat, no `address` object.
 * Country codes are ISO 3166-1 alpha-3 on users (`USA`, `MEX`) [D known-limitations]; recipients
 * use alpha-2, do not mix them up.
 */

/** `account_purpose` values the evidence names (DRIFT-18: the enum depends on `type`). Others pass. */
export type PartnerIndividualAccountPurpose = PartnerOpenString<
  | 'manage_personal_funds'
  | 'receive_payments'
  | 'make_payments'
  | 'personal_or_living_expenses'
  | 'protect_wealth'
>;
export type PartnerBusinessAccountPurpose = PartnerOpenString<
  | 'operating_business_payments'
  | 'receive_payments_for_goods_and_services'
  | 'internal_treasury'
  | 'third_party_money_transmission'
  | 'receive_payment_for_freelancing'
  | 'operating_a_company'
  | 'receive_payments'
  | 'make_payments'
  | 'personal_or_living_expenses'
  | 'protect_wealth'
>;

/** Values the evidence shows as valid for only one `type` (DRIFT-18); sending one for the other type is a 400. */
export const INDIVIDUAL_ONLY_ACCOUNT_PURPOSES: readonly string[] = ['manage_personal_funds'];
export const BUSINESS_ONLY_ACCOUNT_PURPOSES: readonly string[] = [
  'operating_business_payments',
  'receive_payments_for_goods_and_services',
  'internal_treasury',
  'third_party_money_transmission',
  'receive_payment_for_freelancing',
  'operating_a_company',
];

/** `additional_info` (the ACT product's banking questions); accepted, never returned [T1s §3.11]. */
export interface PartnerUserAdditionalInfo {
  has_us_bank_account?: boolean;
  has_denied_bank_account?: boolean;
}

/** A document inside `identifying_information[]`: a base64 data URI or an https URL [T1s §3.8]. */
export interface PartnerUserDocumentInput {
  /** `data:application/pdf;base64,...` or `https://...` (the URL's domain must be pre-authorised by the partner). */
  file: string;
  /** e.g. `front`, `back`, `selfie`, `board_minutes`. */
  type?: string;
  [key: string]: unknown;
}

/** One identifier or document set; `missing_fields` name them `identifying_information:file_<type>` [T1s §3.9]. */
export interface PartnerIdentifyingInformationInput {
  type: string;
  issuing_country?: string;
  number?: string;
  documents?: PartnerUserDocumentInput[];
  [key: string]: unknown;
}

/** An owner or representative; the partner matches them **by email** on later PUTs [T1s §3.9]. */
export interface PartnerAssociatedPersonInput {
  email?: string;
  first_name?: string;
  last_name?: string;
  /** YYYY-MM-DD. */
  birth_date?: string;
  /** Alpha-3. */
  nationality?: string;
  identifying_information?: PartnerIdentifyingInformationInput[];
  [key: string]: unknown;
}

/** Fields both user types can send (evidence §3 create list). All are optional at the wire level. */
export interface PartnerUserCommonFields {
  /** `automatic` (the partner's default) or `verification_link` (a hosted flow collects the data). */
  verification_mode?: 'automatic' | 'verification_link';
  redirect_uri?: string;
  email?: string;
  phone?: string;
  ip_address?: string;
  address_street?: string;
  address_city?: string;
  address_state?: string;
  address_zip_code?: string;
  /** Alpha-3 (`USA`). The partner derives the user's category (US or international) from it. */
  address_country?: string;
  document_type?: string;
  document_number?: string;
  /** Alpha-3. */
  document_country?: string;
  employment_status?: string;
  current_employer?: string;
  immigration_status?: PartnerOpenString<
    'Permanent U.S. Resident' | 'Non-Permanent U.S. Resident' | 'Non-Resident of U.S.'
  >;
  additional_info?: PartnerUserAdditionalInfo;
  identifying_information?: PartnerIdentifyingInformationInput[];
  associated_persons?: PartnerAssociatedPersonInput[];
  /** Without it the partner can reject the user within seconds (evidence §3 [D known-limitations]). */
  source_of_funds?: string;
  occupation?: string;
  /** Accepted, never returned [T1s §3.11]. */
  pep_status?: string;
  /** String values only: `{ vip: true }` is a 400 (DRIFT-20); spec 2.5 limits. */
  metadata?: PartnerMetadata;
  /** Accepted, never returned [T1s §3.14]. */
  tos_accepted_version?: string;
}

/** Individual-specific fields. */
export interface PartnerIndividualFields {
  first_name?: string;
  last_name?: string;
  /** YYYY-MM-DD. */
  birth_date?: string;
  /** Alpha-3. */
  nationality?: string;
  ssn?: string;
  account_purpose?: PartnerIndividualAccountPurpose;
}

/** Business-specific fields. */
export interface PartnerBusinessFields {
  business_legal_name?: string;
  doing_business_as?: string;
  /** A closed enum at the partner (`llc` accepted; the full list is not published) [T1s §3.10]. */
  business_type?: string;
  /** An ARRAY of snake_case NAICS values; a plain string is a 400 "Expected array" (DRIFT-19). */
  business_industry?: string[];
  business_description?: string;
  /** YYYY-MM-DD. */
  formation_date?: string;
  /** Alpha-3. */
  formation_country?: string;
  /** For a non-US business on the ACT product. Accepted, never returned. */
  international_entity_type?: string;
  /** US businesses only. */
  ein?: string;
  /** YYYY-MM-DD [T1s §3.11 B1]. */
  representative_birth_date?: string;
  account_purpose?: PartnerBusinessAccountPurpose;
}

/** POST /v1/users for an individual. `first_name` and `last_name` are required (refused locally without). */
export interface CreatePartnerIndividualUserInput
  extends PartnerUserCommonFields, Omit<PartnerIndividualFields, 'first_name' | 'last_name'> {
  type: 'individual';
  first_name: string;
  last_name: string;
  /** Your own reference; accepted on create only (PUT refuses it) [T1s §3.10]. */
  external_id?: string;
}

/** POST /v1/users for a business. `business_legal_name` is required (refused locally without). */
export interface CreatePartnerBusinessUserInput
  extends PartnerUserCommonFields, Omit<PartnerBusinessFields, 'business_legal_name'> {
  type: 'business';
  business_legal_name: string;
  /** Your own reference; accepted on create only (PUT refuses it) [T1s §3.10]. */
  external_id?: string;
}

/** POST /v1/users body: a union on `type`; unknown keys are refused before I/O. */
export type CreatePartnerUserInput = CreatePartnerIndividualUserInput | CreatePartnerBusinessUserInput;

/**
 * PUT /v1/users/{id} body (evidence §3: PUT, strict). Only the fields sent are written. `type` and
 * `external_id` are refused by the partner (400), so they cannot be typed here; unknown keys are
 * refused too ("Unrecognized key(s)").
 */
export interface UpdatePartnerUserInput
  extends
    PartnerUserCommonFields,
    Omit<PartnerIndividualFields, 'account_purpose'>,
    Omit<PartnerBusinessFields, 'account_purpose'> {
  account_purpose?: PartnerIndividualAccountPurpose | PartnerBusinessAccountPurpose;
  type?: never;
  external_id?: never;
}

/** POST /v1/users/{id}/verifications body (evidence §3 [T3r DRIFT-16, 17, 25]: `type`, not `method`). */
export interface CreatePartnerVerificationInput {
  type: 'embedded-link' | 'api';
  redirect_uri?: string;
}

/**
 * POST /v1/users/{id}/liveness-link body [T1 KiraApiClient]: an optional `redirect` (its URLs must
 * be pre-authorised by the partner). The same link comes back on a repeat call unless it changes.
 */
export interface CreatePartnerLivenessLinkInput {
  redirect?: string;
}
