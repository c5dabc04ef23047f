import { newId, nowIso } from '../../server/ids.util';
import type { AssociatedPerson, Metadata, UserRecord } from '../../server/state.types';
import { SENSITIVE_FIELDS, USER_FIELD_KINDS } from './users-fields.rules';
import { storeIdentifying } from './users-view.util';

/** Writes of POST and PUT /v1/users on the in-memory record (evidence §3). */

type Obj = Record<string, unknown>;

/** Flat fields kept on the record; metadata and persons live apart. `external_id` is create-only. */
const STORED = Object.keys(USER_FIELD_KINDS).filter((k) => k !== 'metadata' && k !== 'associated_persons');

function toPerson(input: Obj, previous?: AssociatedPerson): AssociatedPerson {
  const person: AssociatedPerson = {
    ...previous,
    ...input,
    person_id: previous?.person_id ?? (typeof input.person_id === 'string' ? input.person_id : newId()),
    is_beneficial_owner:
      input.is_beneficial_owner === undefined
        ? (previous?.is_beneficial_owner ?? true)
        : input.is_beneficial_owner === true,
  };
  if (input.identifying_information !== undefined)
    person.identifying_information = storeIdentifying(
      input.identifying_information,
      previous?.identifying_information,
    );
  return person;
}

/** [T1s §3.9]: persons are matched by email; one without an email (or a new email) is added. */
export function mergePersons(current: AssociatedPerson[], input: unknown): AssociatedPerson[] {
  const out = [...current];
  for (const entry of Array.isArray(input) ? (input as Obj[]) : []) {
    const email = typeof entry.email === 'string' ? entry.email.toLowerCase() : undefined;
    const at = email === undefined ? -1 : out.findIndex((p) => p.email?.toLowerCase() === email);
    if (at >= 0) out[at] = toPerson(entry, out[at]);
    else out.push(toPerson(entry));
  }
  return out;
}

export function newUserRecord(clientUuid: string, body: Obj, metadata: Metadata): UserRecord {
  const now = nowIso();
  const fields: Obj = {};
  for (const key of [...STORED, 'external_id']) if (body[key] !== undefined) fields[key] = body[key];
  if (body.identifying_information !== undefined)
    fields.identifying_information = storeIdentifying(body.identifying_information, undefined);
  return {
    user_id: newId(),
    clientUuid,
    type: body.type as UserRecord['type'],
    status: 'CREATED',
    fields,
    metadata,
    associated_persons: mergePersons([], body.associated_persons),
    livenessReferences: [],
    livenessLinks: [],
    verificationTriggered: false,
    providerFailing: false,
    verificationRun: 0,
    verifications: [],
    verificationReplays: new Map(),
    created_at: now,
    updated_at: now,
  };
}

const same = (a: unknown, b: unknown): boolean => JSON.stringify(a) === JSON.stringify(b);

/**
 * PUT: only the fields sent are written [T1s §3.8]. Answers the names that changed (DRIFT-15:
 * `[]` for an empty body) and whether a sensitive change on a user past CREATED needs re-verification.
 */
export function applyUserUpdate(
  user: UserRecord,
  body: Obj,
): { updatedFields: string[]; requiresReverification: boolean } {
  const updated: string[] = [];
  for (const key of STORED) {
    if (body[key] === undefined) continue;
    const next =
      key === 'identifying_information' ? storeIdentifying(body[key], user.fields[key]) : body[key];
    const changed =
      key === 'identifying_information'
        ? Array.isArray(body[key]) && (body[key] as unknown[]).length > 0
        : !same(user.fields[key], next);
    if (changed) updated.push(key);
    user.fields[key] = next;
  }
  if (body.metadata !== undefined && !same(user.metadata, body.metadata)) {
    user.metadata = { ...(body.metadata as Metadata) };
    updated.push('metadata');
  }
  if (body.associated_persons !== undefined) {
    const next = mergePersons(user.associated_persons, body.associated_persons);
    if (!same(user.associated_persons, next)) updated.push('associated_persons');
    user.associated_persons = next;
  }
  const requiresReverification = user.status !== 'CREATED' && updated.some((f) => SENSITIVE_FIELDS.has(f));
  return { updatedFields: updated, requiresReverification };
}
