import type { PartnerFieldError } from '../../errors/partner.errors';
import { BUSINESS_ONLY_ACCOUNT_PURPOSES, INDIVIDUAL_ONLY_ACCOUNT_PURPOSES } from './user-input.model';
import type { CreatePartnerUserInput, UpdatePartnerUserInput } from './user-input.model';
import { describeType, isPlainObject, keyPath, throwIfAny } from '../shared/validation.util';
import {
  DATA_URI,
  USER_FIELD_INSTEAD,
  USER_FIELD_KINDS,
  checkValue,
  isHttpsUrl,
  type UserFieldKind,
} from './user-fields.rules';

/**
 * Checks a POST /v1/users or PUT /v1/users/{id} body before any I/O (evidence §3): the partner's
 * flat field names only, alpha-3 countries, YYYY-MM-DD dates, `business_industry` an array,
 * metadata strings, `account_purpose` not one the evidence shows only for the other type. PUT is
 * strict at the partner ("Unrecognized key(s)", and `type` / `external_id` → 400) [T1s §3.10-3.11],
 * so the same names are refused here with a message saying what to send instead. POST at the
 * partner drops unknown and server-controlled keys and still answers 201 (evidence §11 N16): a
 * misspelt `date_of_birth` or an `address` object would be lost without a word, so the client
 * refuses them on create too, naming the field.
 */
function identifyingErrors(value: unknown, field: string): PartnerFieldError[] {
  if (!Array.isArray(value)) return [{ field, message: `must be an array (got ${describeType(value)})` }];
  const errors: PartnerFieldError[] = [];
  value.forEach((entry: unknown, i) => {
    const at = `${field}[${i}]`;
    if (!isPlainObject(entry)) return void errors.push({ field: at, message: 'must be an object' });
    if (typeof entry.type !== 'string' || entry.type.trim() === '')
      errors.push({ field: `${at}.type`, message: 'is required (e.g. "passport", "business_formation")' });
    if (entry.issuing_country !== undefined)
      checkValue(`${at}.issuing_country`, 'alpha3', entry.issuing_country, errors);
    if (entry.documents === undefined) return;
    if (!Array.isArray(entry.documents))
      return void errors.push({ field: `${at}.documents`, message: 'must be an array' });
    entry.documents.forEach((doc: unknown, j) => {
      const d = `${at}.documents[${j}]`;
      const file = isPlainObject(doc) ? doc.file : undefined;
      // [T1s §3.8]: a base64 data URI or an https URL the partner downloads.
      if (typeof file !== 'string' || !(DATA_URI.test(file) || isHttpsUrl(file)))
        errors.push({
          field: `${d}.file`,
          message: 'must be a base64 data URI (data:<type>;base64,...) or an https URL',
        });
    });
  });
  return errors;
}

function personErrors(value: unknown, field: string): PartnerFieldError[] {
  if (!Array.isArray(value)) return [{ field, message: `must be an array (got ${describeType(value)})` }];
  const errors: PartnerFieldError[] = [];
  value.forEach((p: unknown, i) => {
    const at = `${field}[${i}]`;
    if (!isPlainObject(p)) return void errors.push({ field: at, message: 'must be an object' });
    const kinds: Record<string, UserFieldKind> = {
      email: 'email',
      first_name: 'string',
      last_name: 'string',
      birth_date: 'date',
      nationality: 'alpha3',
    };
    for (const [key, kind] of Object.entries(kinds))
      if (p[key] !== undefined) checkValue(`${at}.${key}`, kind, p[key], errors);
    if (p.identifying_information !== undefined)
      errors.push(...identifyingErrors(p.identifying_information, `${at}.identifying_information`));
  });
  return errors;
}

function additionalInfoErrors(value: unknown): PartnerFieldError[] {
  if (!isPlainObject(value))
    return [{ field: 'additional_info', message: `must be an object (got ${describeType(value)})` }];
  return ['has_us_bank_account', 'has_denied_bank_account']
    .filter((k) => value[k] !== undefined && typeof value[k] !== 'boolean')
    .map((k) => ({ field: `additional_info.${k}`, message: 'must be a boolean' }));
}

function fieldErrors(body: Record<string, unknown>, mode: 'create' | 'update'): PartnerFieldError[] {
  const errors: PartnerFieldError[] = [];
  for (const [key, value] of Object.entries(body)) {
    if (value === undefined) continue;
    const field = keyPath('', key).replace(/^\./, '');
    if (key === 'type' || key === 'external_id') {
      if (mode === 'update')
        errors.push({
          field,
          message:
            key === 'type'
              ? 'cannot be sent on PUT: the partner answers 400 (a user keeps its type)'
              : 'is accepted on create only: the partner answers 400 on PUT',
        });
      continue;
    }
    const kind = USER_FIELD_KINDS[key];
    if (kind === undefined) {
      errors.push({
        field,
        message:
          USER_FIELD_INSTEAD[key] ??
          'is not a field of the partner\'s user (it would be refused: "Unrecognized key(s)")',
      });
      continue;
    }
    if (key === 'identifying_information') errors.push(...identifyingErrors(value, key));
    else if (key === 'associated_persons') errors.push(...personErrors(value, key));
    else if (key === 'additional_info') errors.push(...additionalInfoErrors(value));
    else checkValue(key, kind, value, errors);
  }
  if (
    body.verification_mode !== undefined &&
    !['automatic', 'verification_link'].includes(String(body.verification_mode))
  )
    errors.push({ field: 'verification_mode', message: 'must be automatic or verification_link' });
  return errors;
}

/** DRIFT-18: `account_purpose` values the evidence shows for only one type. */
function purposeErrors(type: unknown, purpose: unknown): PartnerFieldError[] {
  if (typeof purpose !== 'string') return [];
  if (type === 'individual' && BUSINESS_ONLY_ACCOUNT_PURPOSES.includes(purpose))
    return [
      {
        field: 'account_purpose',
        message: `"${purpose}" is a business value; the individual enum refuses it`,
      },
    ];
  if (type === 'business' && INDIVIDUAL_ONLY_ACCOUNT_PURPOSES.includes(purpose))
    return [
      {
        field: 'account_purpose',
        message: `"${purpose}" is an individual value; the business enum refuses it`,
      },
    ];
  return [];
}

/** Every problem with a POST /v1/users body. */
export function collectCreateUserErrors(input: unknown): PartnerFieldError[] {
  if (!isPlainObject(input))
    return [{ field: 'body', message: `must be an object (got ${describeType(input)})` }];
  const errors = fieldErrors(input, 'create');
  if (input.type !== 'individual' && input.type !== 'business') {
    errors.unshift({ field: 'type', message: 'is required: individual or business' });
    return errors;
  }
  const required = input.type === 'individual' ? ['first_name', 'last_name'] : ['business_legal_name'];
  for (const f of required)
    if (input[f] === undefined)
      errors.push({
        field: f,
        message: `is required for ${input.type === 'individual' ? 'an individual' : 'a business'}`,
      });
  if (input.external_id !== undefined) checkValue('external_id', 'string', input.external_id, errors);
  errors.push(...purposeErrors(input.type, input.account_purpose));
  return errors;
}

/**
 * Every problem with a PUT /v1/users/{id} body. `knownType` (the user's type, when the caller knows
 * it) enables the account_purpose check.
 */
export function collectUpdateUserErrors(
  input: unknown,
  knownType?: 'individual' | 'business',
): PartnerFieldError[] {
  if (!isPlainObject(input))
    return [{ field: 'body', message: `must be an object (got ${describeType(input)})` }];
  return [...fieldErrors(input, 'update'), ...purposeErrors(knownType, input.account_purpose)];
}

export function validateCreateUserInput(input: unknown): asserts input is CreatePartnerUserInput {
  throwIfAny(collectCreateUserErrors(input));
}

export function validateUpdateUserInput(
  input: unknown,
  knownType?: 'individual' | 'business',
): asserts input is UpdatePartnerUserInput {
  throwIfAny(collectUpdateUserErrors(input, knownType));
}

/** POST /v1/users/{id}/verifications body (DRIFT-25: `type` is `embedded-link` or `api`). */
export function collectVerificationErrors(input: unknown): PartnerFieldError[] {
  if (!isPlainObject(input))
    return [{ field: 'body', message: `must be an object (got ${describeType(input)})` }];
  const errors: PartnerFieldError[] = [];
  if (input.type !== 'embedded-link' && input.type !== 'api')
    errors.push({ field: 'type', message: 'must be embedded-link or api' });
  if (input.redirect_uri !== undefined) checkValue('redirect_uri', 'url', input.redirect_uri, errors);
  for (const key of Object.keys(input))
    if (key !== 'type' && key !== 'redirect_uri')
      errors.push({
        field: key,
        message: key === 'method' ? 'is not a partner field: send type' : 'is not a field of this call',
      });
  return errors;
}

/** POST /v1/users/{id}/liveness-link body: `{ redirect? }`, an http(s) URL [T1 KiraApiClient]. */
export function collectLivenessLinkErrors(input: unknown): PartnerFieldError[] {
  if (!isPlainObject(input))
    return [{ field: 'body', message: `must be an object (got ${describeType(input)})` }];
  const errors: PartnerFieldError[] = [];
  if (input.redirect !== undefined) checkValue('redirect', 'url', input.redirect, errors);
  for (const key of Object.keys(input))
    if (key !== 'redirect')
      errors.push({ field: key, message: 'is not a field of this call (only redirect)' });
  return errors;
}
