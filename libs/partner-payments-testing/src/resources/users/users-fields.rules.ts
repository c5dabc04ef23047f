/**
 * The partner's user schema as far as the evidence shows it (evidence §3 [T2s Users.cs][T1s §3.10,
 * 3.11 B1/B4, 3.14][T3r DRIFT-3, 18, 19, 20, 22]): flat names, one list for both types.
 */
export type UserFieldKind =
  | 'string'
  | 'alpha3'
  | 'date'
  | 'email'
  | 'url'
  | 'industry'
  | 'additional_info'
  | 'identifying_information'
  | 'associated_persons'
  | 'metadata';

/** The flat address fields of a user or a person (renamed on read: ADDRESS_RENAMES). */
const ADDRESS_FIELDS = [
  'address_street',
  'address_city',
  'address_state',
  'address_zip_code',
  'address_country',
] as const;

export const USER_FIELD_KINDS: Record<string, UserFieldKind> = {
  verification_mode: 'string',
  redirect_uri: 'url',
  email: 'email',
  phone: 'string',
  ip_address: 'string',
  first_name: 'string',
  last_name: 'string',
  birth_date: 'date',
  nationality: 'alpha3',
  address_street: 'string',
  address_city: 'string',
  address_state: 'string',
  address_zip_code: 'string',
  address_country: 'alpha3',
  document_type: 'string',
  document_number: 'string',
  document_country: 'alpha3',
  ssn: 'string',
  ein: 'string',
  business_legal_name: 'string',
  doing_business_as: 'string',
  business_type: 'string',
  business_industry: 'industry',
  business_description: 'string',
  formation_date: 'date',
  formation_country: 'alpha3',
  international_entity_type: 'string',
  representative_birth_date: 'date',
  employment_status: 'string',
  current_employer: 'string',
  immigration_status: 'string',
  additional_info: 'additional_info',
  identifying_information: 'identifying_information',
  associated_persons: 'associated_persons',
  source_of_funds: 'string',
  account_purpose: 'string',
  occupation: 'string',
  pep_status: 'string',
  metadata: 'metadata',
  tos_accepted_version: 'string',
};

/** POST only [T1s §3.10]: PUT refuses both with 400. `status` is validated, its effect unknown (DRIFT-22). */
export const CREATE_ONLY_FIELDS = ['type', 'external_id', 'status'] as const;

/** DRIFT-22: a `status` on POST is checked against this enum (not refused as unknown). */
export const POST_STATUS_VALUES = ['active', 'inactive', 'suspended'] as const;

/** Accepted but never returned on read [T1s §3.11, 3.14]; in an associated person too. */
export const NEVER_RETURNED = new Set([
  'pep_status',
  'international_entity_type',
  'additional_info',
  'tos_accepted_version',
]);

/**
 * The keys of an associated_persons[] entry. The evidence shows no person schema of its own: a
 * person carries an individual's flat fields (its gaps read `associated_persons:birth_date` [T1s
 * §3.9]), `pep_status` (accepted, never returned [T1s §3.11, 3.14]), and what the answer itself
 * shows of a person (`person_id`, `is_beneficial_owner`: one liveness link per beneficial owner [T1
 * KiraApiClient]), so a person read and sent back is accepted. Any other key is refused, as an
 * unknown top-level key of the same route is (PUT strict: "Unrecognized key(s)" [T1s §3.11 B1];
 * POST checked the same way, on purpose). The list is an inference: stricter, never looser.
 */
const PERSON_USER_FIELDS = [
  'email',
  'phone',
  'first_name',
  'last_name',
  'birth_date',
  'nationality',
  ...ADDRESS_FIELDS,
  'document_type',
  'document_number',
  'document_country',
  'ssn',
  'employment_status',
  'current_employer',
  'occupation',
  'pep_status',
  'identifying_information',
] as const;

export const PERSON_FIELD_KINDS: Record<string, UserFieldKind | 'boolean' | 'number' | 'id'> = {
  person_id: 'id',
  is_beneficial_owner: 'boolean',
  // Sent, stored and echoed on a business's owner at the partner [T3raw users/03, 15].
  is_signer: 'boolean',
  has_ownership: 'boolean',
  ownership_percentage: 'number',
  // The same kinds as the user's own fields of those names.
  ...Object.fromEntries(PERSON_USER_FIELDS.map((key) => [key, USER_FIELD_KINDS[key]])),
};

/** Renamed on read into residential_address / registered_address [D known-limitations][T3r DRIFT-4]. */
export const ADDRESS_RENAMES: Record<string, string> = {
  address_street: 'street_line_1',
  address_city: 'city',
  address_state: 'subdivision',
  address_zip_code: 'postal_code',
  address_country: 'country',
};

/** A change to one of these on a user past CREATED triggers re-verification [T2 Users.cs]. */
export const SENSITIVE_FIELDS = new Set([
  'first_name',
  'last_name',
  'birth_date',
  'address_street',
  'address_city',
  'address_state',
  'address_zip_code',
  'address_country',
  'ssn',
  'ein',
  'document_type',
  'document_number',
  'document_country',
  'business_legal_name',
]);

/** DRIFT-18: values the evidence shows for only one type; the other type's enum refuses them. */
export const BUSINESS_ONLY_PURPOSES = [
  'operating_business_payments',
  'receive_payments_for_goods_and_services',
  'internal_treasury',
  'third_party_money_transmission',
  'receive_payment_for_freelancing',
  'operating_a_company',
];
export const INDIVIDUAL_ONLY_PURPOSES = ['manage_personal_funds'];
