import { PartnerFieldError, PartnerLocalValidationError } from '../../errors/partner.errors';

/**
 * Small helpers shared by the validators. Every validator collects all problems first and throws
 * once, so a caller sees every bad field of a request in one PartnerLocalValidationError.
 */

/** `metadata.color` for identifier-like keys, `metadata["a b"]` otherwise (keeps the path unambiguous). */
export function keyPath(prefix: string, key: string): string {
  return /^[A-Za-z_$][\w$]*$/.test(key) ? `${prefix}.${key}` : `${prefix}[${JSON.stringify(key)}]`;
}

/**
 * A plain object (`{}` literal, JSON.parse output, Object.create(null)), from any realm: its prototype
 * is null or a root prototype. Class instances, arrays and Maps are refused.
 */
export function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  if (Object.prototype.toString.call(value) !== '[object Object]') return false;
  const proto: unknown = Object.getPrototypeOf(value);
  return proto === null || Object.getPrototypeOf(proto) === null;
}

/** A Buffer or Uint8Array, from any realm (typed arrays made by Node core may come from another one). */
export function isUint8Array(value: unknown): value is Uint8Array {
  return (
    Buffer.isBuffer(value) ||
    (ArrayBuffer.isView(value) && Object.prototype.toString.call(value) === '[object Uint8Array]')
  );
}

export function describeType(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  return typeof value;
}

/** Throws the one local validation error when anything was collected. */
export function throwIfAny(errors: PartnerFieldError[]): void {
  if (errors.length > 0) throw new PartnerLocalValidationError(errors);
}

/** RFC 4122 shape, any version (spec 2.1 "string, uuid"; the server's own ids need not be v4). */
export const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * A required id documented as a uuid (spec 2.3 recipient_id; spec 4.6 virtual_account_id). Checked
 * locally because a malformed id in the path makes a malformed route, answered 403 invalid_request
 * (spec 7.5): a PartnerPermissionError naming no field. Evidence open question 10 leaves the real
 * body for a malformed payout or account id unknown; the uuid rule itself is the contract's.
 */
export function uuidProblem(value: unknown, field: string): PartnerFieldError | null {
  if (typeof value !== 'string' || value.trim() === '') return { field, message: 'is required' };
  return UUID_PATTERN.test(value) ? null : { field, message: 'must be a UUID' };
}
/** spec 8: Idempotency-Key is a UUID v4 (version nibble 4, variant 8-b). */
export const UUID_V4_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/i;

/**
 * A money amount as the partner takes it: a positive decimal string with at most 2 decimals
 * (evidence §6 [T3r DRIFT-41]: `^[0-9]+(\.[0-9]{1,2})?$`), never a float. "25.005" is neither 25.00
 * nor 25.01: refused here, with the field named, rather than sent.
 */
export function amountProblem(value: unknown): PartnerFieldError | null {
  return typeof value === 'string' && /^[0-9]+(\.[0-9]{1,2})?$/.test(value) && Number(value) > 0
    ? null
    : { field: 'amount', message: 'must be a positive decimal string with up to 2 decimals, e.g. "100.00"' };
}

/** RFC 5321 4.5.3.1.3: a path is at most 256 octets with its angle brackets, so an address 254. */
export const MAX_EMAIL_CHARS = 254;

/**
 * One `@`, no whitespace, a dot inside the domain; lenient on purpose (the partner's exact rule is
 * unknown, and a local check must not refuse what it would accept). Checked in linear time, the
 * length first: the one-regex form `^[^\s@]+@[^\s@]+\.[^\s@]+$` backtracks quadratically on a
 * long run of dots and would block the event loop on a long hostile value.
 */
export function emailProblem(value: string): string | undefined {
  if (value.length > MAX_EMAIL_CHARS)
    return `must be an email address of at most ${MAX_EMAIL_CHARS} characters (got ${value.length})`;
  // Two classes split by the one `@` neither holds: no backtracking.
  if (!/^[^\s@]+@[^\s@]+$/.test(value)) return 'must be an email address';
  const domain = value.slice(value.indexOf('@') + 1);
  return domain.slice(1, -1).includes('.') ? undefined : 'must be an email address';
}
