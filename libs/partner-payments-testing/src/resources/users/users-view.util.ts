import { newId, nowIso } from '../../server/ids.util';
import type { AssociatedPerson, StoredUserDocument, UserRecord, UserStatus } from '../../server/state.types';
import { missingFieldsByProduct, productStatuses } from './users-eligibility.policy';
import { ADDRESS_RENAMES, NEVER_RETURNED } from './users-fields.rules';

/**
 * The partner's user answers (evidence §3): flat, `id` (not `user_id`), a legacy lowercase
 * `verification_status` beside `status`, `eligible_products[]`, the address renamed into
 * residential_address / registered_address, documents as 10-minute links, SSN and
 * document_number in plain text (as the partner sends them [T3r README #3]).
 */

/** The legacy lowercase field; it lags `status` (evidence §3: the two can disagree, gate on status). */
const LEGACY: Record<UserStatus, string> = {
  CREATED: 'unverified',
  VERIFYING: 'unverified',
  REVIEW: 'unverified',
  VERIFIED: 'verified',
  REJECTED: 'rejected',
};

type Obj = Record<string, unknown>;

/** Stores documents without their bytes: what a read shows is a link, a type and a time [T1s §3.9]. */
export function storeIdentifying(list: unknown, previous: unknown): Obj[] {
  const prev = Array.isArray(previous) ? (previous as Obj[]) : [];
  const next = Array.isArray(list) ? (list as Obj[]) : [];
  const merged = new Map<string, Obj>(prev.map((e) => [String(e.type), { ...e }]));
  for (const entry of next) {
    const kept = merged.get(String(entry.type));
    const docs = Array.isArray(entry.documents)
      ? (entry.documents as Obj[]).map((d): StoredUserDocument => {
          const file = String(d.file);
          const type = /^data:([^;,]+)/.exec(file)?.[1];
          return {
            type: typeof d.type === 'string' ? d.type : null,
            content_type: type ?? 'application/octet-stream',
            uploaded_at: nowIso(),
            ref: newId(),
          };
        })
      : [];
    // [T1s §3.9]: entries merge by type; resending without files keeps the stored ones.
    const documents = [...((kept?.documents as StoredUserDocument[] | undefined) ?? []), ...docs];
    merged.set(String(entry.type), { ...kept, ...entry, documents });
  }
  return [...merged.values()];
}

function identifyingView(list: unknown, user: UserRecord): Obj[] | undefined {
  if (!Array.isArray(list)) return undefined;
  const expires = new Date(Date.now() + 600_000).toISOString();
  return (list as Obj[]).map((e) => ({
    ...e,
    documents: ((e.documents as StoredUserDocument[] | undefined) ?? []).map((d) => ({
      type: d.type,
      // DRIFT-24: a 10-minute presigned link replaces the file on read.
      file: `https://user-files.sandbox.invalid/clients/${user.clientUuid}/users/${user.user_id}/${d.ref}?X-Amz-Expires=600`,
      expires_at: expires,
      uploaded_at: d.uploaded_at,
      content_type: d.content_type,
    })),
  }));
}

function personView(p: AssociatedPerson, user: UserRecord): Obj {
  // "Accepted but never returned: pep_status, …" [T1s §3.11, 3.14] holds for a person too.
  const out: Obj = Object.fromEntries(Object.entries(p).filter(([key]) => !NEVER_RETURNED.has(key)));
  if (p.identifying_information !== undefined)
    out.identifying_information = identifyingView(p.identifying_information, user);
  return out;
}

/** `create` the POST answer, `update` the PUT answer, `read` GET and the list. */
export type UserViewMode = 'create' | 'update' | 'read';

/**
 * The address keys a read shows, in order; the partner answers every key, `""` for the ones not on
 * file (`street_line_2` has no request field) (evidence §11 N21 [T3raw users/03, 15]).
 */
const ADDRESS_VIEW_KEYS = ['street_line_1', 'street_line_2', 'city', 'subdivision', 'postal_code', 'country'];

export function userView(user: UserRecord, mode: UserViewMode = 'read'): Obj {
  const flat: Obj = {};
  const address: Obj = Object.fromEntries(ADDRESS_VIEW_KEYS.map((k) => [k, '']));
  let hasAddress = false;
  for (const [key, value] of Object.entries(user.fields)) {
    if (NEVER_RETURNED.has(key)) continue;
    if (key in ADDRESS_RENAMES) {
      address[ADDRESS_RENAMES[key]] = value;
      hasAddress = true;
    } else if (key === 'identifying_information') flat[key] = identifyingView(value, user);
    else flat[key] = value;
  }
  const view: Obj = {
    id: user.user_id,
    type: user.type,
    status: user.status,
    verification_status: LEGACY[user.status],
    verification_mode: user.fields.verification_mode ?? 'automatic',
    external_id: user.fields.external_id ?? null,
    ...flat,
    [user.type === 'business' ? 'registered_address' : 'residential_address']: hasAddress ? address : null,
    associated_persons: user.associated_persons.map((p) => personView(p, user)),
    eligible_products: productStatuses(user),
    metadata: { ...user.metadata },
    created_at: user.created_at,
    updated_at: user.updated_at,
  };
  if (mode === 'read') {
    // DRIFT-14: no verification_triggered on GET; missing_fields by product plus general [T2s Users.cs].
    view.missing_fields = missingFieldsByProduct(user, true);
    return view;
  }
  // evidence §11 C4, C5 [T3raw users/03, 15, 23]: the POST and PUT answers carry
  // verification_triggered and missing_fields by product code (no general), the latter left out
  // when nothing is missing.
  view.verification_triggered = user.verificationTriggered;
  const missing = missingFieldsByProduct(user, false);
  if (Object.values(missing).some((list) => list.length > 0)) view.missing_fields = missing;
  return view;
}
