import type { PartnerOpenString } from '../shared/common.model';
import type { PartnerMetadata, PartnerMetadataFilter } from '../shared/metadata.model';
import type {
  PartnerBankAccountDetails,
  PartnerRecipientAddress,
  PartnerSpeiAccountDetails,
  PartnerWalletAccountDetails,
} from './recipient-account.model';

/**
 * Recipients as the partner takes and answers them (spec 2.3, 4.4; evidence §4, confirmed against
 * the partner's sandbox): the create body keeps recipient data at the top and nests the rail data
 * under `account`, discriminated by `account_type`. Every country on a recipient is ISO 3166-1
 * alpha-2 (`US`, `MX`); alpha-3 is refused with "Country must be a 2-character ISO code"
 * (users, by contrast, take alpha-3).
 */

/** `type` of a recipient; optional on create, `individual` when left out (evidence §4 [T2s]). */
export type PartnerRecipientType = 'individual' | 'business';

/** doc_type on the US rails (WIRE, ACH, INSTANT_PAY, SWIFT); `ssn` is refused (evidence §4 [T3r DRIFT-27]). */
export type PartnerUsDocType = 'id' | 'dni' | 'passport' | 'ein';

/** Rails the evidence lists as typed but open: each country's own fields (evidence §4 [T2s Enums.cs]). */
export type PartnerLatamAccountType =
  | 'PSE'
  | 'BRL'
  | 'ARS'
  | 'CLP'
  | 'CRC'
  | 'DOP'
  | 'ECUSD'
  | 'GTQ'
  | 'PAUSD'
  | 'PEN'
  | 'PEUSD'
  | 'PYG'
  | 'SVUSD'
  | 'UYU';

/** Every account_type the partner accepts on create (evidence §4). */
export type PartnerRecipientAccountType =
  'WIRE' | 'ACH' | 'INSTANT_PAY' | 'SWIFT' | 'SPEI' | 'WALLET' | PartnerLatamAccountType;

/** A structured address. Only street_name was isolated as required (evidence §4 [T2s]). */
export interface PartnerRecipientAddressInput {
  street_name: string;
  city?: string;
  state?: string;
  postal_code?: string;
  /** ISO 3166-1 alpha-2, e.g. `US`. */
  country?: string;
}

/** Fields shared by WIRE, ACH and INSTANT_PAY. */
interface PartnerUsBankAccountFields {
  account_number: string;
  /** 9 digits (ABA). */
  routing_number: string;
  bank_name: string;
  /** Account sub-type, e.g. `checking`. */
  type?: PartnerOpenString<'checking' | 'savings'>;
  doc_type?: PartnerUsDocType;
  doc_number?: string;
}

/** WIRE: bank_address is a structured object; needs a top-level `address` object and `email`. */
export interface PartnerWireAccountInput extends PartnerUsBankAccountFields {
  account_type: 'WIRE';
  bank_address: PartnerRecipientAddressInput;
  /** Alpha-2. */
  doc_country_code?: string;
  /** Alpha-2. */
  country?: string;
  swift_code?: string;
}

/**
 * ACH and INSTANT_PAY (same payload): bank_address is a string of at most 500 characters. The
 * partner keeps only these fields and drops `country`, `currency` and the rest silently (evidence
 * §11 N26 [T3raw recipients/26]), so the client refuses them rather than lose them.
 */
export interface PartnerAchAccountInput extends PartnerUsBankAccountFields {
  account_type: 'ACH' | 'INSTANT_PAY';
  bank_address: string;
}

/** SWIFT: account_number of 4+ letters or digits (an IBAN fits), swift_code of 8 or 11. */
export interface PartnerSwiftAccountInput {
  account_type: 'SWIFT';
  account_number: string;
  swift_code: string;
  bank_name: string;
  bank_address: PartnerRecipientAddressInput;
  routing_number?: string;
  type?: string;
  doc_type?: PartnerUsDocType;
  doc_number?: string;
  doc_country_code?: string;
  country?: string;
}

/** SPEI (Mexico): the partner sets the country to MX from the CLABE, whatever is sent (evidence §4 [T3r DRIFT-38]). */
export interface PartnerSpeiAccountInput {
  account_type: 'SPEI';
  /** 18 digits. */
  clabe: string;
  bank_name: string;
  doc_type?: string;
  doc_number?: string;
  /** Ignored: the partner stores MX. */
  country?: string;
}

/** WALLET: tron carries only USDT; a TRON address must pass base58check (evidence §4 [T3r DRIFT-28]). */
export type PartnerWalletAccountInput =
  | { account_type: 'WALLET'; address: string; network: 'solana' | 'polygon'; token: 'USDC' | 'USDT' }
  | { account_type: 'WALLET'; address: string; network: 'tron'; token: 'USDT' };

/**
 * A LATAM rail, typed loosely: the evidence confirms BRL, CRC, GTQ and SVUSD (201) and lists the
 * others' fields, whose bank_code lookup blocks them in the partner's sandbox (evidence §4, §8).
 * doc_type values per rail are in PARTNER_LATAM_DOC_TYPES; doc_country_code is the rail's country.
 */
export interface PartnerLatamAccountInput {
  account_type: PartnerLatamAccountType;
  account_number?: string;
  bank_code?: string;
  bank_name?: string;
  type?: string;
  doc_type: string;
  doc_number: string;
  doc_country_code: string;
  /** Required on BRL, ECUSD, PEN, PEUSD. */
  city?: string;
  /** BRL only. */
  pix_key_type?: PartnerOpenString<'code_cpf' | 'code_cnpj' | 'email' | 'random_key' | 'phone_number'>;
  pix_key?: string;
  [field: string]: unknown;
}

export type PartnerRecipientAccountInput =
  | PartnerWireAccountInput
  | PartnerAchAccountInput
  | PartnerSwiftAccountInput
  | PartnerSpeiAccountInput
  | PartnerWalletAccountInput
  | PartnerLatamAccountInput;

/** Recipient data beside `account`. An individual needs first_name and last_name, a business company_name. */
interface PartnerRecipientInputBase {
  user_id: string;
  /** Default `individual`. */
  type?: PartnerRecipientType;
  first_name?: string;
  last_name?: string;
  company_name?: string;
  email?: string;
  phone?: string;
  /** A structured object; the bank rails require it, the others also take a plain string. */
  address?: PartnerRecipientAddressInput | string;
  metadata?: PartnerMetadata;
}

/** WIRE, ACH, INSTANT_PAY: a top-level address object and an email are required. */
export interface CreateUsBankRecipientInput extends PartnerRecipientInputBase {
  account: PartnerWireAccountInput | PartnerAchAccountInput;
  address: PartnerRecipientAddressInput;
  email: string;
}

/** SWIFT: a top-level address object, email AND phone are required (evidence §4 [T3r DRIFT-29]). */
export interface CreateSwiftRecipientInput extends PartnerRecipientInputBase {
  account: PartnerSwiftAccountInput;
  address: PartnerRecipientAddressInput;
  email: string;
  phone: string;
}

export interface CreateSpeiRecipientInput extends PartnerRecipientInputBase {
  account: PartnerSpeiAccountInput;
}

export interface CreateWalletRecipientInput extends PartnerRecipientInputBase {
  account: PartnerWalletAccountInput;
}

export interface CreateLatamRecipientInput extends PartnerRecipientInputBase {
  account: PartnerLatamAccountInput;
}

/** POST /v1/recipients body: a union on `account.account_type` (evidence §4). Checked before I/O. */
export type CreatePartnerRecipientInput =
  | CreateUsBankRecipientInput
  | CreateSwiftRecipientInput
  | CreateSpeiRecipientInput
  | CreateWalletRecipientInput
  | CreateLatamRecipientInput;

/** account_type as read back: UPPERCASE, open to values a newer partner adds. */
export type PartnerAccountType = PartnerOpenString<PartnerRecipientAccountType>;

/**
 * A recipient as the partner sends it, the same on create and read (evidence §4): `recipient_id`,
 * no `user_id`, empty name and contact fields left out. `address` is an object when a city is on
 * file, else a string, else absent. created_ts/updated_ts are in PostgreSQL text form
 * (`2026-05-28 00:52:49.879228+00`): read them with parsePartnerTimestamp().
 */
export interface PartnerRecipient {
  recipient_id: string;
  type: PartnerOpenString<PartnerRecipientType>;
  company_name?: string;
  first_name?: string;
  last_name?: string;
  email?: string;
  phone?: string;
  address?: PartnerRecipientAddress | string;
  account_type: PartnerAccountType;
  account_details: PartnerBankAccountDetails | PartnerSpeiAccountDetails | PartnerWalletAccountDetails;
  created_ts: string;
  updated_ts: string;
  metadata: PartnerMetadata;
  [key: string]: unknown;
}

/** spec 4.4 response. */
export interface PartnerRecipientList {
  recipients: PartnerRecipient[];
  total: number;
}

export interface ListPartnerRecipientsParams {
  /** spec 4.4: metadata[key]=value; several keys require all of them. */
  metadata?: PartnerMetadataFilter;
}

/** Last 4 characters only: logs never carry full account numbers. */
export function maskAccountNumber(accountNumber: string | null | undefined): string {
  if (!accountNumber) return '';
  return accountNumber.length <= 4 ? '****' : `****${accountNumber.slice(-4)}`;
}
