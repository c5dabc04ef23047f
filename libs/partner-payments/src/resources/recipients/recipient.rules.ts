import type { PartnerRecipientAccountType } from './recipient.model';
import { collectMetadataErrors } from '../shared/metadata.rules';
import { UUID_PATTERN, describeType, isPlainObject, throwIfAny } from '../shared/validation.util';
import { Collector, EMAIL, type Obj } from './recipient-fields.util';
import { walletAddressProblem } from './wallet-address.rules';

/**
 * POST /v1/recipients rules, checked before any I/O (evidence §4, as the partner's sandbox refused
 * or accepted them). Every problem is collected and thrown once as a PartnerLocalValidationError
 * whose fieldErrors name the field by its path (`account.bank_address.street_name`).
 */

export const PARTNER_RECIPIENT_ACCOUNT_TYPES: readonly PartnerRecipientAccountType[] = [
  'WIRE',
  'ACH',
  'INSTANT_PAY',
  'SWIFT',
  'SPEI',
  'WALLET',
  'PSE',
  'BRL',
  'ARS',
  'CLP',
  'CRC',
  'DOP',
  'ECUSD',
  'GTQ',
  'PAUSD',
  'PEN',
  'PEUSD',
  'PYG',
  'SVUSD',
  'UYU',
];

/** doc_type on the US rails (evidence §4 [T3r DRIFT-27]: `ssn` is refused). */
export const PARTNER_US_DOC_TYPES = ['id', 'dni', 'passport', 'ein'] as const;

/**
 * Each LATAM rail's country (doc_country_code must equal it) and its doc_type values where the
 * evidence gives them (evidence §4 [T2s Recipients.cs]); a rail without a list takes any string.
 */
export const PARTNER_LATAM_RAILS: Readonly<
  Record<string, { country: string; docTypes?: readonly string[] }>
> = {
  PSE: { country: 'CO', docTypes: ['nuip', 'passport', 'nit'] },
  BRL: { country: 'BR', docTypes: ['cpf'] },
  ARS: { country: 'AR', docTypes: ['cuil', 'cuit'] },
  CLP: { country: 'CL' },
  CRC: { country: 'CR', docTypes: ['ci', 'cr', 'cj'] },
  DOP: { country: 'DO', docTypes: ['ce', 'passport', 'rn'] },
  ECUSD: { country: 'EC', docTypes: ['ci', 'ce', 'passport', 'ruc'] },
  GTQ: { country: 'GT', docTypes: ['dpi'] },
  PAUSD: { country: 'PA', docTypes: ['ce', 'passport', 'ruc'] },
  PEN: { country: 'PE' },
  PEUSD: { country: 'PE' },
  PYG: { country: 'PY' },
  SVUSD: { country: 'SV', docTypes: ['dui'] },
  UYU: { country: 'UY' },
};

const US_BANK_RAILS = new Set(['WIRE', 'ACH', 'INSTANT_PAY']);

/**
 * Account fields the partner drops silently on ACH and INSTANT_PAY: it stores only routing_number,
 * account_number, type, bank_name, bank_address, doc_type and doc_number (evidence §11 N26
 * [T3raw recipients/26]). Refused here, naming the field, since the caller meant them to be kept.
 */
const ACH_DROPPED = ['country', 'currency', 'doc_country_code', 'swift_code'];

function refuseAchDropped(c: Collector, a: Obj, type: string): void {
  for (const key of ACH_DROPPED)
    if (a[key] !== undefined)
      c.add(
        `account.${key}`,
        `is not kept on ${type}: the partner drops it without an error, so do not send it`,
      );
}

function checkUsBank(c: Collector, a: Obj, type: string): void {
  c.match(a, 'account_number', 'account.account_number', true, /^\d{4,17}$/, 'must be 4 to 17 digits');
  c.match(a, 'routing_number', 'account.routing_number', true, /^\d{9}$/, 'must be 9 digits (ABA)');
  c.string(a, 'bank_name', 'account.bank_name', true, 200);
  if (type === 'WIRE') {
    if (a.bank_address === undefined)
      c.add('account.bank_address', 'is required (an address object on WIRE)');
    else c.address(a.bank_address, 'account.bank_address');
  } else {
    // ACH and INSTANT_PAY take the bank's address as one string (evidence §4 [T2s]).
    c.string(a, 'bank_address', 'account.bank_address', true, 500);
    return;
  }
  checkSwiftCode(c, a, false);
}

function checkSwiftCode(c: Collector, a: Obj, required: boolean): void {
  c.match(
    a,
    'swift_code',
    'account.swift_code',
    required,
    /^[A-Za-z0-9]{8}([A-Za-z0-9]{3})?$/,
    'must be 8 or 11 letters or digits',
  );
}

function checkSwift(c: Collector, a: Obj): void {
  c.match(
    a,
    'account_number',
    'account.account_number',
    true,
    /^[A-Za-z0-9]{4,34}$/,
    'must be 4 to 34 letters or digits (an IBAN fits)',
  );
  checkSwiftCode(c, a, true);
  c.string(a, 'bank_name', 'account.bank_name', true, 200);
  if (a.bank_address === undefined) c.add('account.bank_address', 'is required (an address object on SWIFT)');
  else c.address(a.bank_address, 'account.bank_address');
}

function checkWallet(c: Collector, a: Obj): void {
  const address = c.string(a, 'address', 'account.address', true, 128);
  const network = c.oneOf(a, 'network', 'account.network', true, ['solana', 'polygon', 'tron']);
  const token = c.oneOf(a, 'token', 'account.token', true, ['USDC', 'USDT']);
  if (network === 'tron' && token === 'USDC')
    c.add('account.token', 'must be USDT on tron (tron carries only USDT)');
  const problem = address && network ? walletAddressProblem(network, address) : undefined;
  if (problem) c.add('account.address', problem);
}

function checkLatam(c: Collector, a: Obj, type: string): void {
  const rail = PARTNER_LATAM_RAILS[type];
  c.oneOf(a, 'doc_type', 'account.doc_type', true, rail.docTypes);
  c.string(a, 'doc_number', 'account.doc_number', true, 64);
  const country = c.string(a, 'doc_country_code', 'account.doc_country_code', true);
  if (country !== undefined && country !== rail.country)
    c.add('account.doc_country_code', `must be ${rail.country} on ${type}`);
  if (type === 'CRC')
    c.match(a, 'account_number', 'account.account_number', true, /^\d{22}$/, 'must be 22 digits on CRC');
  if (type === 'BRL') {
    c.oneOf(a, 'pix_key_type', 'account.pix_key_type', true, [
      'code_cpf',
      'code_cnpj',
      'email',
      'random_key',
      'phone_number',
    ]);
    c.string(a, 'pix_key', 'account.pix_key', true, 140);
  }
  if (['BRL', 'ECUSD', 'PEN', 'PEUSD'].includes(type)) c.string(a, 'city', 'account.city', true, 200);
}

/** Throws one PartnerLocalValidationError naming every bad field of a POST /v1/recipients body. */
export function validateRecipientInput(input: unknown): void {
  const c = new Collector();
  if (!isPlainObject(input)) {
    c.add('input', `must be an object, got ${describeType(input)}`);
    return throwIfAny(c.errors);
  }
  c.match(input, 'user_id', 'user_id', true, UUID_PATTERN, 'must be a UUID');
  const type = c.oneOf(input, 'type', 'type', false, ['individual', 'business']) ?? 'individual';
  if (type === 'business') c.string(input, 'company_name', 'company_name', true, 200);
  else {
    c.string(input, 'first_name', 'first_name', true, 100);
    c.string(input, 'last_name', 'last_name', true, 100);
  }
  c.match(input, 'email', 'email', false, EMAIL, 'must be an email address');
  c.string(input, 'phone', 'phone', false, 32);
  if (input.metadata !== undefined) c.errors.push(...collectMetadataErrors(input.metadata, 'metadata'));
  const account = input.account;
  if (!isPlainObject(account)) {
    c.add(
      'account',
      account === undefined ? 'is required ({ account_type, ...rail fields })' : 'must be an object',
    );
    return throwIfAny(c.errors);
  }
  const accountType = account.account_type;
  if (
    typeof accountType !== 'string' ||
    !(PARTNER_RECIPIENT_ACCOUNT_TYPES as readonly string[]).includes(accountType)
  ) {
    c.add('account.account_type', `must be one of ${PARTNER_RECIPIENT_ACCOUNT_TYPES.join(', ')}`);
    return throwIfAny(c.errors);
  }
  const bankRail = US_BANK_RAILS.has(accountType) || accountType === 'SWIFT';
  if (bankRail) {
    // evidence §4: the bank rails need the recipient's structured address and an email; SWIFT a phone too.
    if (input.address === undefined) c.add('address', `is required on ${accountType} (an address object)`);
    else c.address(input.address, 'address');
    if (input.email === undefined) c.add('email', `is required on ${accountType}`);
    if (accountType === 'SWIFT' && input.phone === undefined) c.add('phone', 'is required on SWIFT');
    c.oneOf(account, 'doc_type', 'account.doc_type', false, PARTNER_US_DOC_TYPES);
    c.string(account, 'doc_number', 'account.doc_number', false, 64);
    if (accountType === 'ACH' || accountType === 'INSTANT_PAY') refuseAchDropped(c, account, accountType);
    else {
      c.country(account, 'doc_country_code', 'account.doc_country_code');
      c.country(account, 'country', 'account.country');
    }
  } else if (isPlainObject(input.address)) c.address(input.address, 'address');
  else c.string(input, 'address', 'address', false, 500);

  if (US_BANK_RAILS.has(accountType)) checkUsBank(c, account, accountType);
  else if (accountType === 'SWIFT') checkSwift(c, account);
  else if (accountType === 'SPEI') {
    c.match(account, 'clabe', 'account.clabe', true, /^\d{18}$/, 'must be 18 digits');
    c.string(account, 'bank_name', 'account.bank_name', true, 200);
  } else if (accountType === 'WALLET') checkWallet(c, account);
  else checkLatam(c, account, accountType);
  throwIfAny(c.errors);
}
