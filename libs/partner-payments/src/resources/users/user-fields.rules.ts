import type { PartnerFieldError } from '../../errors/partner.errors';
import { parseIsoDate } from '../shared/calendar-date.util';
import { collectMetadataErrors } from '../shared/metadata.rules';
import { describeType, emailProblem } from '../shared/validation.util';

/** How one user field is checked. */
export type UserFieldKind =
  'string' | 'alpha3' | 'date' | 'email' | 'url' | 'strings' | 'object' | 'list' | 'metadata';

/** Every user field the partner takes (evidence §3), with how its value is checked. */
export const USER_FIELD_KINDS: Record<string, UserFieldKind> = {
  verification_mode: 'string',
  redirect_uri: 'url',
  email: 'email',
  phone: 'string',
  ip_address: 'string',
  address_street: 'string',
  address_city: 'string',
  address_state: 'string',
  address_zip_code: 'string',
  address_country: 'alpha3',
  document_type: 'string',
  document_number: 'string',
  document_country: 'alpha3',
  employment_status: 'string',
  current_employer: 'string',
  immigration_status: 'string',
  additional_info: 'object',
  identifying_information: 'list',
  associated_persons: 'list',
  source_of_funds: 'string',
  account_purpose: 'string',
  occupation: 'string',
  pep_status: 'string',
  metadata: 'metadata',
  tos_accepted_version: 'string',
  // individual
  first_name: 'string',
  last_name: 'string',
  birth_date: 'date',
  nationality: 'alpha3',
  ssn: 'string',
  // business
  business_legal_name: 'string',
  doing_business_as: 'string',
  business_type: 'string',
  business_industry: 'strings',
  business_description: 'string',
  formation_date: 'date',
  formation_country: 'alpha3',
  international_entity_type: 'string',
  ein: 'string',
  representative_birth_date: 'date',
};

/** Every name the partner's user schema knows, for other validators and tests. */
export const PARTNER_USER_FIELDS: readonly string[] = [
  'type',
  'external_id',
  ...Object.keys(USER_FIELD_KINDS),
];

/** Names integrations send by mistake, and what the partner calls them [T1s §3.11 B1][evidence §3]. */
export const USER_FIELD_INSTEAD: Record<string, string> = {
  address:
    'the partner has no address object: send address_street, address_city, address_state, address_zip_code and address_country (alpha-3)',
  residential_address: 'is a read-only name: send the flat address_* fields',
  registered_address: 'is a read-only name: send the flat address_* fields',
  date_of_birth: 'is not a partner field: send birth_date (YYYY-MM-DD)',
  representative_date_of_birth: 'is not a partner field: send representative_birth_date',
  business_trade_name: 'is not a partner field: send doing_business_as',
  tax_id: 'is not a partner field: send ssn (individual) or ein (business)',
  country: 'is not a partner field: send address_country (alpha-3)',
  ext_reference: 'is not a partner field: send external_id (create only)',
  status:
    'is not sent by this client: the partner validates it as active|inactive|suspended and its effect is unknown',
};

const SNAKE = /^[a-z0-9]+(?:_[a-z0-9]+)*$/;
export const DATA_URI = /^data:[\w.+-]+\/[\w.+-]+;base64,[A-Za-z0-9+/=\s]+$/;

export function isHttpsUrl(v: string): boolean {
  try {
    return new URL(v).protocol === 'https:';
  } catch {
    return false;
  }
}

/** Pushes the problem of one field value, named `field`, onto `errors`. */
export function checkValue(
  field: string,
  kind: UserFieldKind,
  value: unknown,
  errors: PartnerFieldError[],
): void {
  const push = (message: string): void => void errors.push({ field, message });
  if (kind === 'metadata') {
    errors.push(...collectMetadataErrors(value, field));
    return;
  }
  if (kind === 'strings') {
    // DRIFT-19: a plain string is a 400 "Expected array".
    if (!Array.isArray(value))
      return push(`must be an array of snake_case values (got ${describeType(value)})`);
    if (value.length === 0) return push('must hold at least one value');
    value.forEach((v, i) => {
      if (typeof v !== 'string' || !SNAKE.test(v))
        errors.push({
          field: `${field}[${i}]`,
          message: 'must be a snake_case string, e.g. "software_publishers"',
        });
    });
    return;
  }
  if (kind === 'object' || kind === 'list') return; // checked by their own functions below
  if (typeof value !== 'string') return push(`must be a string (got ${describeType(value)})`);
  if (value.trim() === '') return push('must not be empty');
  if (kind === 'alpha3' && !/^[A-Z]{3}$/.test(value)) {
    // evidence §3: users use alpha-3; the partner echoes `US` unchanged, so a wrong code is never caught there.
    push(`must be an ISO 3166-1 alpha-3 code in capitals, e.g. "USA" (got "${value}")`);
  } else if (kind === 'date' && parseIsoDate(value) === undefined) {
    push(`must be a calendar date YYYY-MM-DD (got "${value}")`);
  } else if (kind === 'email') {
    const problem = emailProblem(value);
    if (problem) push(problem);
  } else if (kind === 'url' && !/^https?:\/\//i.test(value)) {
    push('must be an http(s) URL');
  }
}
