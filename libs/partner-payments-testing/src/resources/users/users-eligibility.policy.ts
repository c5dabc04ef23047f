import type { UserRecord } from '../../server/state.types';

/**
 * Which products a user's data satisfies. The partner keeps eight required-field sets (product ×
 * US/international × individual/business) it does not publish [T2 Users.cs]; what the evidence
 * fixes: verification triggers once ONE product has nothing missing (DRIFT-3, 19: the docs'
 * minimal payload lacks account_purpose, source_of_funds, employment_status, current_employer,
 * occupation); entries look like `associated_persons:birth_date` and
 * `identifying_information:file_board_minutes` [T1s §3.9]; `general` is the union of every
 * product [T1s §3.11 B6]; `unsupported_reason` replaces missing_fields when no data can help
 * [T1 REVISION-DOCS §3.3]. The lists below are the sandbox's model of that, documented in the README.
 */
export interface ProductRule {
  product_id: string;
  product_name: string;
  missing(user: UserRecord): string[];
}

/** Restricted for the virtual-account products (alpha-3) [T2 Users.cs KiraRestrictedCountries]. */
const RESTRICTED = new Set(
  'AFG BLR MMR CAF CIV CUB COD IRN IRQ LBR LBY PRK RUS SAU SOM SDN SYR UKR YEM VEN ZWE'.split(' '),
);

const has = (v: unknown): boolean =>
  (typeof v === 'string' && v.trim() !== '') || (Array.isArray(v) && v.length > 0) || typeof v === 'boolean';

const absent = (user: UserRecord, names: string[]): string[] => names.filter((n) => !has(user.fields[n]));

const isUs = (user: UserRecord): boolean => {
  const c = user.fields.address_country;
  return c === 'USA' || c === 'US';
};

const documentTypes = (user: UserRecord): Set<string> => {
  const list = Array.isArray(user.fields.identifying_information) ? user.fields.identifying_information : [];
  return new Set(
    list
      .filter((e: Record<string, unknown>) => Array.isArray(e.documents) && e.documents.length > 0)
      .map((e: Record<string, unknown>) => String(e.type)),
  );
};

function baseMissing(user: UserRecord): string[] {
  const common = [
    'email',
    'address_street',
    'address_city',
    'address_state',
    'address_zip_code',
    'address_country',
    'source_of_funds',
    'account_purpose',
  ];
  if (user.type === 'individual') {
    const out = absent(user, [
      'first_name',
      'last_name',
      'birth_date',
      'nationality',
      ...common,
      'occupation',
    ]);
    if (isUs(user)) out.push(...absent(user, ['ssn']));
    else out.push(...absent(user, ['document_type', 'document_number', 'document_country']));
    return out;
  }
  const out = absent(user, [
    'business_legal_name',
    'business_type',
    'business_industry',
    'formation_date',
    'formation_country',
    ...common,
  ]);
  if (isUs(user)) out.push(...absent(user, ['ein']));
  if (!documentTypes(user).has('business_formation'))
    out.push('identifying_information:file_business_formation');
  if (user.associated_persons.length === 0) out.push('associated_persons');
  for (const field of ['first_name', 'last_name', 'email', 'birth_date', 'nationality'])
    if (user.associated_persons.some((p) => !has(p[field]))) out.push(`associated_persons:${field}`);
  return out;
}

function actMissing(user: UserRecord): string[] {
  const out = baseMissing(user);
  const info = (user.fields.additional_info ?? {}) as Record<string, unknown>;
  for (const k of ['has_us_bank_account', 'has_denied_bank_account'])
    if (typeof info[k] !== 'boolean') out.push(`additional_info:${k}`);
  if (user.type === 'individual') {
    out.push(...absent(user, ['employment_status']));
    if (user.fields.employment_status === 'employed') out.push(...absent(user, ['current_employer']));
    if (!isUs(user)) out.push(...absent(user, ['immigration_status']));
  } else if (!isUs(user)) out.push(...absent(user, ['international_entity_type']));
  return out;
}

export const PRODUCTS: ProductRule[] = [
  { product_id: 'usa-virtual-accounts', product_name: 'USA Virtual Accounts', missing: baseMissing },
  { product_id: 'usa-virtual-accounts-act', product_name: 'USA Virtual Accounts (ACT)', missing: actMissing },
];

export interface ProductStatus {
  product_id: string;
  product_code: string;
  product_name: string;
  eligible: boolean;
  missing_fields?: string[];
  unsupported_reason?: string;
}

/** `eligible_products[]`: eligible only once VERIFIED with nothing missing (DRIFT-23: false in REVIEW). */
export function productStatuses(user: UserRecord): ProductStatus[] {
  const country = user.fields.address_country;
  const restricted = typeof country === 'string' && RESTRICTED.has(country);
  return PRODUCTS.map((p) => {
    const base = { product_id: p.product_id, product_code: p.product_id, product_name: p.product_name };
    if (restricted)
      return {
        ...base,
        eligible: false,
        unsupported_reason: `Users in ${String(country)} are not supported`,
      };
    const missing = p.missing(user);
    return { ...base, eligible: user.status === 'VERIFIED' && missing.length === 0, missing_fields: missing };
  });
}

/** GET's `missing_fields`: by product plus `general`, the union [T2s Users.cs][T1s §3.11 B6]. */
export function missingFieldsByProduct(user: UserRecord): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  const general = new Set<string>();
  for (const s of productStatuses(user)) {
    out[s.product_id] = s.missing_fields ?? [];
    for (const f of s.missing_fields ?? []) general.add(f);
  }
  out.general = [...general];
  return out;
}

/** Verification starts once one product has nothing missing (evidence §3, DRIFT-3/19). */
export function verificationCanTrigger(user: UserRecord): boolean {
  return productStatuses(user).some(
    (s) => s.unsupported_reason === undefined && (s.missing_fields ?? []).length === 0,
  );
}
