import { validateMetadata } from '../metadata.rules';
import {
  SchemaReader,
  definedEntries,
  isJsonObject,
  receivedType,
  type JsonObject,
  type SchemaIssue,
} from '../../server/request-schema.util';
import { ACCOUNT_TYPES, RAILS } from './rails.rules';
import { readAddressObject } from './recipient-rails.rules';

/** What POST /v1/recipients keeps of a valid body: known fields only (evidence §4 [T3r DRIFT-37]). */
export interface RecipientInput {
  user_id: string;
  type: 'individual' | 'business';
  first_name?: string;
  last_name?: string;
  company_name?: string;
  email?: string;
  phone?: string;
  address?: JsonObject | string;
  metadata: Record<string, string>;
  account_type: string;
  account_details: JsonObject;
}

export type RecipientCheck =
  | { ok: true; input: RecipientInput }
  | { ok: false; issues: SchemaIssue[] }
  /** The schema passed but a business rule refused it (the bank_code lookup, evidence §8). */
  | { ok: false; refusal: string };

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The address wording the partner uses for the bank rails [T2s Recipients.cs][T3r DRIFT-29]. */
function addressMessage(accountType: string, present: boolean): string {
  if (accountType === 'SWIFT' && !present)
    return 'address is required for SWIFT accounts (structured object with street_name, city, state, postal_code, country)';
  const rails = accountType === 'INSTANT_PAY' ? 'INSTANT_PAY' : 'ACH/WIRE/SWIFT';
  return `address must be a structured object with street_name, city, state, postal_code, country for ${rails} accounts`;
}

/**
 * POST /v1/recipients body (evidence §4): recipient data at the top, rail data nested under
 * `account` and discriminated by account_type. Every problem is reported at once, as Zod does.
 */
export function checkRecipientBody(body: unknown): RecipientCheck {
  const r = new SchemaReader();
  if (!isJsonObject(body)) {
    r.add('', `Expected object, received ${receivedType(body)}`, 'invalid_type');
    return { ok: false, issues: r.issues };
  }
  const userId = r.string(body, 'user_id', 'user_id', {
    required: true,
    pattern: UUID,
    patternMessage: 'Invalid uuid',
  });
  // evidence §4 [T2s]: a WALLET recipient without `type` was created and read back as individual.
  const type = (r.string(body, 'type', 'type', { oneOf: ['individual', 'business'] }) ?? 'individual') as
    'individual' | 'business';
  const isBusiness = body.type === 'business';
  const names = {
    first_name: r.string(body, 'first_name', 'first_name', { required: !isBusiness, max: 100 }),
    last_name: r.string(body, 'last_name', 'last_name', { required: !isBusiness, max: 100 }),
    company_name: r.string(body, 'company_name', 'company_name', { required: isBusiness, max: 200 }),
  };
  const account = r.object(body, 'account', 'account', true);
  const accountType = account ? readAccountType(r, account) : undefined;
  const rail = accountType ? RAILS[accountType] : undefined;
  const email = r.string(body, 'email', 'email', { required: rail?.email === true, email: true, max: 254 });
  const phone = r.string(body, 'phone', 'phone', { required: rail?.phone === true, min: 4, max: 32 });
  let address: JsonObject | string | undefined;
  if (rail?.address) {
    if (isJsonObject(body.address)) address = readAddressObject(r, body.address, 'address');
    else
      r.add(
        'address',
        addressMessage(accountType!, body.address !== undefined),
        body.address === undefined ? 'invalid_type' : 'invalid_union',
      );
  } else if (isJsonObject(body.address)) {
    address = readAddressObject(r, body.address, 'address');
  } else {
    address = r.string(body, 'address', 'address', { max: 500 });
  }
  for (const e of validateMetadata(body.metadata)) r.add(e.field, e.message);
  const details = rail && account ? rail.read(r, account) : {};
  if (r.issues.length > 0 || !userId || !accountType || !rail) return { ok: false, issues: r.issues };
  const refusal = rail.refuse?.(details);
  if (refusal) return { ok: false, refusal };
  return {
    ok: true,
    input: {
      user_id: userId.toLowerCase(),
      type,
      ...definedEntries({ ...names, email, phone, address }),
      metadata: { ...((body.metadata as Record<string, string> | undefined) ?? {}) },
      account_type: accountType,
      account_details: details,
    },
  };
}

/** Zod's discriminated union: an unknown account_type is the one issue reported for `account`. */
function readAccountType(r: SchemaReader, account: JsonObject): string | undefined {
  const v = account.account_type;
  if (typeof v === 'string' && ACCOUNT_TYPES.includes(v)) return v;
  const expected = ACCOUNT_TYPES.map((t) => `'${t}'`).join(' | ');
  r.add(
    'account.account_type',
    `Invalid discriminator value. Expected ${expected}`,
    'invalid_union_discriminator',
  );
  return undefined;
}
