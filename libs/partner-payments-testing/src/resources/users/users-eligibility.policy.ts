import type { UserRecord } from '../../server/state.types';

/**
 * Which products a user's data satisfies. The partner keeps eight required-field sets (product ×
 * US/international × individual/business) it does not publish [T2 Users.cs]; what the evidence
 * fixes: verification triggers once ONE product has nothing missing (DRIFT-3, 19: the docs'
 * minimal payload lacks account_purpose, source_of_funds, employment_status, current_employer,
 * occupation); entries look like `associated_persons:birth_date` and
 * `identifying_information:file_board_minutes` [T1s §3.9]; `general` is the union of every
 * product [T1s §3.11 B6]; `unsupported_reason` replaces missing_fields when no data can help
 * [T1 REVISION-DOCS §3.3]. The lists below are the sandbox's model of that, documented in docs/testing/what-it-serves.md.
 */
export interface ProductRule {
  /** The product's code (`product_code` on the wire). */
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

/** The two products the sandbox models requirements for (evidence §3 [T2s Users.cs]). */
export const PRODUCTS: ProductRule[] = [
  { product_id: 'usa-virtual-accounts', product_name: 'USA Virtual Accounts', missing: baseMissing },
  { product_id: 'usa-virtual-accounts-act', product_name: 'USA Virtual Accounts (ACT)', missing: actMissing },
];

/**
 * Every product the partner lists, in its order, with its `product_id`: an opaque UUID, while
 * `product_code` is the readable key (evidence §11 C3 [T3raw users/03, 15, 23]: 13 entries, none
 * eligible, none carrying its own missing_fields). The ids are the ones those captures show.
 */
const CATALOGUE: readonly [code: string, id: string, name: string][] = [
  ['payment_link', '2bdd542d-883f-426c-9664-0718a9d86f04', 'Payment Link'],
  ['cash_deposit', 'b3c92edb-6ae4-476d-ba06-06b00e4d306c', 'Cash Deposit'],
  ['card_deposit', '3c1053b2-fc2d-4e50-aa1d-54f900c9a1b7', 'Card Deposit'],
  ['payout', '4d1a6f16-2842-408d-973c-0492e5a59686', 'Payout'],
  ['virtual_account', '6602ddd8-4e74-42b4-977d-1d2033dea216', 'Virtual Account'],
  ['pse_deposit', '18c36a3b-dc0a-4711-a03d-3d6b588ae252', 'PSE Deposit'],
  ['virtual_account_spei', '6a760a30-f53e-4895-8be1-d40f3971616b', 'Virtual Account SPEI'],
  ['usa-virtual-accounts', '497207ac-004c-48e1-b90f-5cf6a161a745', 'USA Virtual Accounts'],
  ['usa-va-deposit-settlement', 'e8b2477e-476b-47bf-97f2-627eff260f12', 'USA Virtual Accounts Settlements'],
  ['usa-va-crypto-payout', 'ad3cb816-4e97-44ab-ae17-838d5916ab56', 'US VA Crypto Payout'],
  ['usa-va-fiat-payout', '5a1ce607-49a8-41a3-b08c-163b2ab6097e', 'US VA Fiat Payout'],
  ['usa-virtual-accounts-act', 'a1b2c3d4-e5f6-4a7b-8c9d-0e1f2a3b4c5d', 'USA Virtual Accounts (ACT)'],
  ['usa-va-fiat-to-crypto-payout', '1ee9f2c6-d529-4a3e-8c40-e9d38f194847', 'USA VA Fiat to Crypto Payout'],
];

export interface ProductStatus {
  product_id: string;
  product_code: string;
  product_name: string;
  eligible: boolean;
  unsupported_reason?: string;
}

const restrictedCountry = (user: UserRecord): string | undefined => {
  const country = user.fields.address_country;
  return typeof country === 'string' && RESTRICTED.has(country) ? country : undefined;
};

/**
 * `eligible_products[]`: a modelled product is eligible only once VERIFIED with nothing missing
 * (DRIFT-23: false in REVIEW); the others never are in the sandbox. What is missing is in the
 * top-level `missing_fields` (missingFieldsByProduct), not in the entries (C3).
 */
export function productStatuses(user: UserRecord): ProductStatus[] {
  const restricted = restrictedCountry(user);
  return CATALOGUE.map(([code, id, name]) => {
    const rule = PRODUCTS.find((p) => p.product_id === code);
    const base = { product_id: id, product_code: code, product_name: name };
    if (rule && restricted)
      return { ...base, eligible: false, unsupported_reason: `Users in ${restricted} are not supported` };
    return {
      ...base,
      eligible: rule !== undefined && user.status === 'VERIFIED' && rule.missing(user).length === 0,
    };
  });
}

/**
 * The top-level `missing_fields`, keyed by product code. GET adds `general`, the union of every
 * product [T2s Users.cs][T1s §3.11 B6]; the POST and PUT answers carry the same dict without it
 * (evidence §11 C4 [T3raw users/03, 15]). Restricted users have no entry (unsupported_reason instead).
 */
export function missingFieldsByProduct(user: UserRecord, general: boolean): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  const union = new Set<string>();
  if (restrictedCountry(user) === undefined)
    for (const p of PRODUCTS) {
      out[p.product_id] = p.missing(user);
      for (const f of out[p.product_id]) union.add(f);
    }
  if (general) out.general = [...union];
  return out;
}

/** Verification starts once one product has nothing missing (evidence §3, DRIFT-3/19). */
export function verificationCanTrigger(user: UserRecord): boolean {
  return restrictedCountry(user) === undefined && PRODUCTS.some((p) => p.missing(user).length === 0);
}
