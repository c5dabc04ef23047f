import { validateMetadata, type FieldError } from '../metadata.rules';
import type { AssociatedPerson, UserRecord } from '../../server/state.types';

/** Fields a user carries besides its id, type, status, metadata and persons (provider-facts: Users). */
export const USER_FIELDS = [
  'first_name',
  'last_name',
  'business_legal_name',
  'email',
  'phone',
  'source_of_funds',
  'date_of_birth',
  'tax_id',
  'address',
  'country',
] as const;

const isStr = (v: unknown): v is string => typeof v === 'string' && v.trim().length > 0;

/** Validates POST /v1/users (full) or PUT /v1/users/{id} (partial). Every error names its field. */
export function validateUserBody(body: unknown, partial: boolean): FieldError[] {
  if (typeof body !== 'object' || body === null || Array.isArray(body))
    return [{ field: 'body', message: 'must be a JSON object' }];
  const b = body as Record<string, unknown>;
  const errors: FieldError[] = [];
  if (!partial) {
    if (b.type !== 'individual' && b.type !== 'business')
      errors.push({ field: 'type', message: 'must be individual or business' });
    if (b.type === 'individual') {
      if (!isStr(b.first_name))
        errors.push({ field: 'first_name', message: 'is required for an individual' });
      if (!isStr(b.last_name)) errors.push({ field: 'last_name', message: 'is required for an individual' });
    }
    if (b.type === 'business' && !isStr(b.business_legal_name)) {
      errors.push({ field: 'business_legal_name', message: 'is required for a business' });
    }
  } else if (b.type !== undefined) errors.push({ field: 'type', message: 'cannot be changed' });
  if (b.email !== undefined && (typeof b.email !== 'string' || !/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(b.email))) {
    errors.push({ field: 'email', message: 'must be an email address' });
  }
  for (const f of USER_FIELDS) {
    if (f !== 'address' && b[f] !== undefined && typeof b[f] !== 'string')
      errors.push({ field: f, message: 'must be a string' });
  }
  errors.push(...validateMetadata(b.metadata));
  if (b.associated_persons !== undefined) {
    if (!Array.isArray(b.associated_persons))
      errors.push({ field: 'associated_persons', message: 'must be an array' });
    else
      b.associated_persons.forEach((p: unknown, i) => {
        if (typeof p !== 'object' || p === null)
          errors.push({ field: `associated_persons[${i}]`, message: 'must be an object' });
      });
  }
  return errors;
}

export function toPersons(input: unknown, newId: () => string): AssociatedPerson[] {
  if (!Array.isArray(input)) return [];
  return input.map((p: Record<string, unknown>) => ({
    ...p,
    person_id: typeof p.person_id === 'string' ? p.person_id : newId(),
    is_beneficial_owner: p.is_beneficial_owner === undefined ? true : p.is_beneficial_owner === true,
  }));
}

/** The flat user answer (provider-facts: no envelope, id as user_id). */
export function userView(user: UserRecord) {
  return {
    user_id: user.user_id,
    type: user.type,
    status: user.status,
    ...user.fields,
    metadata: { ...user.metadata },
    associated_persons: user.associated_persons.map((p) => ({ ...p })),
    created_at: user.created_at,
    updated_at: user.updated_at,
  };
}
