/**
 * The LATAM rails (evidence §4, §8): each one's country, doc_type values where known, extra fields
 * (BRL's PIX key) and whether the partner's sandbox finds its bank_code.
 */
import { SchemaReader, definedEntries, type JsonObject } from '../../server/request-schema.util';
import { digits, type RailSpec } from './recipient-rails.rules';

/** A LATAM rail: its country, its doc_type values where known, and whether its bank_code lookup passes. */
interface LatamRule {
  country: string;
  docTypes?: readonly string[];
  extra?: (r: SchemaReader, a: JsonObject) => JsonObject;
  /** evidence §8: the partner's sandbox finds no bank_code for these rails. */
  blocked?: boolean;
}

const LATAM: Record<string, LatamRule> = {
  BRL: {
    country: 'BR',
    docTypes: ['cpf'],
    extra: (r, a) =>
      definedEntries({
        pix_key_type: r.string(a, 'pix_key_type', 'account.pix_key_type', {
          required: true,
          oneOf: ['code_cpf', 'code_cnpj', 'email', 'random_key', 'phone_number'],
        }),
        pix_key: r.string(a, 'pix_key', 'account.pix_key', { required: true, max: 140 }),
        city: r.string(a, 'city', 'account.city', { required: true, max: 200 }),
      }),
  },
  CRC: { country: 'CR', docTypes: ['ci', 'cr', 'cj'] },
  GTQ: { country: 'GT', docTypes: ['dpi'] },
  SVUSD: { country: 'SV', docTypes: ['dui'] },
  PSE: { country: 'CO', docTypes: ['nuip', 'passport', 'nit'], blocked: true },
  ARS: { country: 'AR', docTypes: ['cuil', 'cuit'], blocked: true },
  CLP: { country: 'CL', blocked: true },
  DOP: { country: 'DO', docTypes: ['ce', 'passport', 'rn'], blocked: true },
  ECUSD: { country: 'EC', docTypes: ['ci', 'ce', 'passport', 'ruc'], blocked: true },
  PAUSD: { country: 'PA', docTypes: ['ce', 'passport', 'ruc'], blocked: true },
  PEN: { country: 'PE', blocked: true },
  PEUSD: { country: 'PE', blocked: true },
  PYG: { country: 'PY', blocked: true },
  UYU: { country: 'UY', blocked: true },
};

function latamSpec(type: string, rule: LatamRule): RailSpec {
  return {
    address: false,
    email: false,
    phone: false,
    read: (r, a) =>
      definedEntries({
        account_number: r.string(a, 'account_number', 'account.account_number', {
          required: true,
          max: 34,
          ...(type === 'CRC' ? digits(22, 22, 'account_number') : {}),
        }),
        bank_code: r.string(a, 'bank_code', 'account.bank_code', {
          required: type === 'GTQ' || type === 'SVUSD' || rule.blocked === true,
          max: 16,
        }),
        bank_name: r.string(a, 'bank_name', 'account.bank_name', {
          required: ['CRC', 'GTQ', 'SVUSD'].includes(type),
          max: 200,
        }),
        type: r.string(a, 'type', 'account.type', { max: 64 }),
        doc_type: r.string(a, 'doc_type', 'account.doc_type', {
          required: true,
          oneOf: rule.docTypes,
          max: 32,
        }),
        doc_number: r.string(a, 'doc_number', 'account.doc_number', { required: true, max: 64 }),
        doc_country_code: r.string(a, 'doc_country_code', 'account.doc_country_code', {
          required: true,
          literal: rule.country,
        }),
        ...(rule.extra ? rule.extra(r, a) : {}),
      }),
    refuse: rule.blocked
      ? (d) =>
          `Invalid bank code '${String(d.bank_code)}' - bank not found in system for country ${rule.country}`
      : undefined,
  };
}

/** The rules of every LATAM account_type. */
export const LATAM_RAILS: Record<string, RailSpec> = Object.fromEntries(
  Object.entries(LATAM).map(([type, rule]) => [type, latamSpec(type, rule)]),
);
