import { SchemaReader, definedEntries, type JsonObject } from '../../server/request-schema.util';
import { WALLET_NETWORKS, WALLET_TOKENS, walletAddressProblem } from './wallet-address.rules';

/**
 * The `account` object of POST /v1/recipients, one rule set per account_type (evidence §4
 * [T2s Recipients.cs, Enums.cs][D create-a-recipient][T3r DRIFT-26..38]). Each reader records the
 * partner's Zod issues and returns the account_details the partner stores: only the fields it
 * knows (unknown ones are silently stripped, DRIFT-37).
 */

/** evidence §4 [T3r DRIFT-26]: every country on a recipient is alpha-2; alpha-3 is refused. */
export const COUNTRY_MESSAGE = 'Country must be a 2-character ISO code';

export function readCountry(r: SchemaReader, obj: JsonObject, key: string, path: string, required = false) {
  const v = r.string(obj, key, path, { required });
  if (v === undefined) return undefined;
  // evidence §11 N15 [T3raw recipients/02]: a length check, so `USA` is Zod's `too_big`.
  if (v.length !== 2) return void r.add(path, COUNTRY_MESSAGE, v.length > 2 ? 'too_big' : 'too_small');
  if (!/^[A-Z]{2}$/.test(v)) return void r.add(path, COUNTRY_MESSAGE);
  return v;
}

/** A structured address `{ street_name, city, state, postal_code, country }`: only street_name was isolated as required [T2s]. */
export function readAddressObject(r: SchemaReader, value: JsonObject, path: string): JsonObject {
  return definedEntries({
    street_name: r.string(value, 'street_name', `${path}.street_name`, { required: true, max: 500 }),
    city: r.string(value, 'city', `${path}.city`, { max: 200 }),
    state: r.string(value, 'state', `${path}.state`, { max: 200 }),
    postal_code: r.string(value, 'postal_code', `${path}.postal_code`, { max: 20 }),
    country: readCountry(r, value, 'country', `${path}.country`),
  });
}

/** evidence §4 [T3r DRIFT-27]: US rails take doc_type id|dni|passport|ein (ssn is refused). */
export const US_DOC_TYPES = ['id', 'dni', 'passport', 'ein'] as const;

/** Where the rail needs recipient-level data beside the account (evidence §4 per-rail list). */
export interface RailNeeds {
  /** A structured top-level `address` object. */
  address: boolean;
  email: boolean;
  phone: boolean;
}

export interface RailSpec extends RailNeeds {
  read(r: SchemaReader, account: JsonObject): JsonObject;
  /**
   * A refusal the partner makes after its schema passes (evidence §8: a bank_code lookup that
   * blocks ten LATAM rails in its sandbox). Undefined when none.
   */
  refuse?(details: JsonObject): string | undefined;
}

export const digits = (min: number, max: number, field: string) => ({
  required: true,
  pattern: new RegExp(`^\\d{${min},${max}}$`),
  patternMessage: min === max ? `${field} must be ${min} digits` : `${field} must be ${min} to ${max} digits`,
});

/** account_number, routing_number, bank_name and the optional document fields of the US bank rails. */
function readUsBank(r: SchemaReader, a: JsonObject): JsonObject {
  return definedEntries({
    routing_number: r.string(a, 'routing_number', 'account.routing_number', digits(9, 9, 'routing_number')),
    account_number: r.string(a, 'account_number', 'account.account_number', digits(4, 17, 'account_number')),
    type: r.string(a, 'type', 'account.type', { max: 32 }),
    bank_name: r.string(a, 'bank_name', 'account.bank_name', { required: true, max: 200 }),
    swift_code: readSwiftCode(r, a, false),
    doc_type: r.string(a, 'doc_type', 'account.doc_type', { oneOf: US_DOC_TYPES }),
    doc_number: r.string(a, 'doc_number', 'account.doc_number', { max: 64 }),
    doc_country_code: readCountry(r, a, 'doc_country_code', 'account.doc_country_code'),
    country: readCountry(r, a, 'country', 'account.country'),
  });
}

function readSwiftCode(r: SchemaReader, a: JsonObject, required: boolean): string | undefined {
  return r.string(a, 'swift_code', 'account.swift_code', {
    required,
    lengths: [8, 11],
    pattern: /^[A-Za-z0-9]+$/,
    patternMessage: 'swift_code must be 8 or 11 letters or digits',
  });
}

/** bank_address as an object (WIRE, SWIFT): a string is "Expected object, received string" [T2s]. */
function bankAddressObject(r: SchemaReader, a: JsonObject): JsonObject | undefined {
  const v = r.object(a, 'bank_address', 'account.bank_address', true);
  return v ? readAddressObject(r, v, 'account.bank_address') : undefined;
}

export const WIRE: RailSpec = {
  address: true,
  email: true,
  phone: false,
  read: (r, a) => ({ ...readUsBank(r, a), ...definedEntries({ bank_address: bankAddressObject(r, a) }) }),
};

/**
 * ACH and INSTANT_PAY: bank_address is a string of at most 500 characters [T2s]. The partner keeps
 * only these details; `country`, `currency` and the other keys sent in `account` are dropped
 * (evidence §11 N26 [T3raw recipients/26]), so they are checked as on WIRE but not stored.
 */
const ACH_DETAILS = [
  'routing_number',
  'account_number',
  'type',
  'bank_name',
  'bank_address',
  'doc_type',
  'doc_number',
];
export const ACH: RailSpec = {
  address: true,
  email: true,
  phone: false,
  read: (r, a) => {
    const details: JsonObject = {
      ...readUsBank(r, a),
      ...definedEntries({
        bank_address: r.string(a, 'bank_address', 'account.bank_address', { required: true, max: 500 }),
      }),
    };
    return Object.fromEntries(Object.entries(details).filter(([k]) => ACH_DETAILS.includes(k)));
  },
};

/** SWIFT: account_number of 4+ letters or digits (an IBAN fits), swift_code 8 or 11, email AND phone. */
export const SWIFT: RailSpec = {
  address: true,
  email: true,
  phone: true,
  read: (r, a) =>
    definedEntries({
      account_number: r.string(a, 'account_number', 'account.account_number', {
        required: true,
        min: 4,
        max: 34,
        pattern: /^[A-Za-z0-9]+$/,
        patternMessage: 'account_number must be letters and digits only',
      }),
      routing_number: r.string(a, 'routing_number', 'account.routing_number', { max: 34 }),
      type: r.string(a, 'type', 'account.type', { max: 32 }),
      bank_name: r.string(a, 'bank_name', 'account.bank_name', { required: true, max: 200 }),
      bank_address: bankAddressObject(r, a),
      swift_code: readSwiftCode(r, a, true),
      doc_type: r.string(a, 'doc_type', 'account.doc_type', { oneOf: US_DOC_TYPES }),
      doc_number: r.string(a, 'doc_number', 'account.doc_number', { max: 64 }),
      doc_country_code: readCountry(r, a, 'doc_country_code', 'account.doc_country_code'),
      country: readCountry(r, a, 'country', 'account.country'),
    }),
};

/**
 * SPEI: clabe + bank_name; doc fields optional [T2s], `doc_type: "rfc"` among them. The partner
 * answers `doc_country_code: "MX"` from the CLABE whatever `account.country` said, even `USA`
 * [T3r DRIFT-38][T3raw recipients/11, evidence §11 N27], so `country` is not read at all.
 */
export const SPEI: RailSpec = {
  address: false,
  email: false,
  phone: false,
  read: (r, a) => {
    // Required, but not among the details the partner answers for SPEI [D get-a-recipient].
    r.string(a, 'bank_name', 'account.bank_name', { required: true, max: 200 });
    return definedEntries({
      clabe: r.string(a, 'clabe', 'account.clabe', digits(18, 18, 'clabe')),
      doc_type: r.string(a, 'doc_type', 'account.doc_type', { max: 32 }),
      doc_number: r.string(a, 'doc_number', 'account.doc_number', { max: 64 }),
      doc_country_code: 'MX',
    });
  },
};

/** WALLET: address, network solana|polygon|tron, token USDC|USDT, tron only USDT, TRON base58check. */
export const WALLET: RailSpec = {
  address: false,
  email: false,
  phone: false,
  read: (r, a) => {
    const address = r.string(a, 'address', 'account.address', { required: true, max: 128 });
    const network = r.string(a, 'network', 'account.network', { required: true, oneOf: WALLET_NETWORKS });
    const token = r.string(a, 'token', 'account.token', { required: true, oneOf: WALLET_TOKENS });
    if (network === 'tron' && token === 'USDC') r.add('account.token', 'Only USDT is supported on tron');
    if (network && address) {
      const problem = walletAddressProblem(network, address);
      if (problem) r.add('account.address', problem);
    }
    return definedEntries({ token, network, address });
  },
};
