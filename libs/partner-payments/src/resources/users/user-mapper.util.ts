import { parsePartnerTimestamp } from '../shared/timestamp.util';
import type { PartnerMetadata } from '../shared/metadata.model';
import type {
  PartnerEligibleProduct,
  PartnerLivenessLink,
  PartnerUser,
  PartnerUserAddress,
  PartnerUserUpdateResult,
  PartnerVerification,
} from './user.model';

/**
 * Maps the partner's user answers (evidence §3) onto PartnerUser. Tolerant by design: a field the
 * partner leaves out becomes null or [], never a throw; only a body without any id is refused.
 */
type Obj = Record<string, unknown>;

const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
const asObj = (v: unknown): Obj => (isObj(v) ? v : {});
const str = (v: unknown): string | null => (typeof v === 'string' && v !== '' ? v : null);
const strings = (v: unknown): string[] =>
  Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : [];

function toAddress(v: unknown): PartnerUserAddress | null {
  if (!isObj(v)) return null;
  return {
    streetLine1: str(v.street_line_1) ?? str(v.address_street),
    streetLine2: str(v.street_line_2),
    city: str(v.city) ?? str(v.address_city),
    subdivision: str(v.subdivision) ?? str(v.address_state),
    postalCode: str(v.postal_code) ?? str(v.address_zip_code),
    country: str(v.country) ?? str(v.address_country),
  };
}

/**
 * An `eligible_products[]` entry. `product_id` is opaque (a UUID in May, the code in July: evidence
 * §11 C3), so the code is the key; an entry without its own `missing_fields` takes the top-level
 * list under its code (`byCode`).
 */
function toEligibleProduct(
  v: unknown,
  byCode: Record<string, string[]> | null,
): PartnerEligibleProduct | null {
  if (!isObj(v)) return null;
  const id = str(v.product_id) ?? str(v.product_code);
  const code = str(v.product_code) ?? str(v.product_id);
  if (id === null || code === null) return null;
  return {
    productId: id,
    productCode: code,
    productName: str(v.product_name),
    eligible: v.eligible === true,
    missingFields: Array.isArray(v.missing_fields) ? strings(v.missing_fields) : (byCode?.[code] ?? []),
    unsupportedReason: str(v.unsupported_reason),
  };
}

/**
 * `missing_fields`: `{ "<product code>": [...], "general": [...] }` on GET [T2s Users.cs]; on the
 * create and PUT answers the same dict without `general`, `null` or absent (evidence §11 C4).
 */
function toMissingFields(v: unknown): Record<string, string[]> | null {
  if (!isObj(v)) return null;
  return Object.fromEntries(Object.entries(v).map(([k, list]) => [k, strings(list)]));
}

function toMetadata(v: unknown): PartnerMetadata {
  return Object.fromEntries(
    Object.entries(asObj(v)).filter((e): e is [string, string] => typeof e[1] === 'string'),
  );
}

/** Normalises a user: the id arrives as `id` (evidence §10), or `user_id` (older readings). */
export function toPartnerUser(body: unknown): PartnerUser {
  const raw = asObj(body);
  const id = str(raw.id) ?? str(raw.user_id);
  if (id === null) throw new TypeError('user body carries neither id nor user_id');
  const type = raw.type === 'individual' || raw.type === 'business' ? raw.type : null;
  const missingFields = toMissingFields(raw.missing_fields);
  return {
    userId: id,
    type,
    status: str(raw.status),
    verificationStatus: str(raw.verification_status),
    verificationMode: str(raw.verification_mode),
    externalId: str(raw.external_id) ?? str(raw.ext_reference),
    email: str(raw.email),
    eligibleProducts: (Array.isArray(raw.eligible_products) ? raw.eligible_products : [])
      .map((p) => toEligibleProduct(p, missingFields))
      .filter((p): p is PartnerEligibleProduct => p !== null),
    missingFields,
    verificationTriggered:
      typeof raw.verification_triggered === 'boolean' ? raw.verification_triggered : null,
    verificationLink: str(raw.verification_link),
    residentialAddress: toAddress(raw.residential_address),
    registeredAddress: toAddress(raw.registered_address),
    associatedPersons: (Array.isArray(raw.associated_persons) ? raw.associated_persons : []).filter(isObj),
    metadata: toMetadata(raw.metadata),
    createdAt: parsePartnerTimestamp(raw.created_at),
    updatedAt: parsePartnerTimestamp(raw.updated_at),
    raw,
  };
}

/**
 * The PUT answer: the user plus `updated_fields[]`, `requires_reverification`, `warnings[]`
 * (DRIFT-15); `warnings` may be absent (evidence §11 C5 [T3raw users/15]).
 */
export function toPartnerUserUpdateResult(body: unknown): PartnerUserUpdateResult {
  const user = toPartnerUser(body);
  const raw = user.raw;
  return {
    ...user,
    updatedFields: strings(raw.updated_fields),
    requiresReverification: raw.requires_reverification === true,
    warnings: (Array.isArray(raw.warnings) ? raw.warnings : [])
      .map((w) => (typeof w === 'string' ? w : (str(asObj(w).message) ?? JSON.stringify(w))))
      .filter((w) => w !== ''),
  };
}

/** 201 `{ id, verification_link, status }` (DRIFT-16). */
export function toPartnerVerification(body: unknown): PartnerVerification {
  const raw = asObj(body);
  const id = str(raw.id) ?? str(raw.verification_id);
  if (id === null) throw new TypeError('verification body carries no id');
  return { id, verificationLink: str(raw.verification_link), status: str(raw.status), raw };
}

/** Liveness-link answers: a bare list or one wrapped in data / links / liveness_links / items. */
export function toLivenessLinks(body: unknown): PartnerLivenessLink[] {
  const b = asObj(body);
  const list = Array.isArray(body)
    ? body
    : ([b.data, b.links, b.liveness_links, b.items].find(Array.isArray) ?? [body]);
  return (list as unknown[]).map((entry) => {
    const raw = asObj(entry);
    const ref = raw.person_reference_id ?? raw.reference_id ?? raw.provider_reference_id ?? raw.person_id;
    const url = raw.liveness_url ?? raw.url ?? raw.link ?? raw.liveness_link;
    return {
      referenceId: typeof ref === 'string' ? ref : null,
      url: typeof url === 'string' ? url : null,
      expiresAt: parsePartnerTimestamp(raw.expires_at),
      raw,
    };
  });
}
