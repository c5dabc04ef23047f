import type { PartnerFieldError } from './partner.errors';
import type { PartnerItemError } from './partner-api.errors';

/** One normalised view of any error body the partner sends (spec 7.1, provider-facts "Errors, limits"). */
export interface ParsedErrorBody {
  /** Lowercase snake code ('validation_error'), or null when the body names none. */
  code: string | null;
  message: string | null;
  details: unknown;
  fieldErrors: PartnerFieldError[];
  itemErrors: PartnerItemError[];
}

type Obj = Record<string, unknown>;

const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
const str = (v: unknown): string | null => (typeof v === 'string' && v.length > 0 ? v : null);

/** provider-facts: `{ error: { code } }` uses SCREAMING_SNAKE; spec 7.2 codes are lowercase. */
export function normaliseErrorCode(code: unknown): string | null {
  const s = str(code);
  return s === null
    ? null
    : s
        .trim()
        .toLowerCase()
        .replace(/[\s-]+/g, '_');
}

/** FastAPI-style `loc` (['body', 'items', 0, 'answer_value']) → 'items[0].answer_value'. */
function locToField(loc: unknown): string {
  if (!Array.isArray(loc)) return str(loc) ?? '';
  const parts = loc[0] === 'body' || loc[0] === 'query' || loc[0] === 'path' ? loc.slice(1) : loc;
  return parts.reduce<string>((acc, p) => {
    if (typeof p === 'number') return `${acc}[${p}]`;
    return acc === '' ? String(p) : `${acc}.${String(p)}`;
  }, '');
}

/** A snake_case field path (`bank`, `destination.currency`, `items[0].answer`) and " is " after it. */
const FIELD_PREFIX = /^([a-z][a-z0-9_]*(?:\.[a-z0-9_]+|\[\d+\])*) is (.+)$/s;

/**
 * A detail with a message and no path: the virtual-account create words each problem "<field> is
 * <problem>" (evidence §11 N31, N32: "type is Invalid enum value…", "bank is bank is required…"),
 * so the field is read from the message and the rest kept as its message.
 */
function fieldFromMessage(message: string): PartnerFieldError {
  const match = FIELD_PREFIX.exec(message);
  return match ? { field: match[1], message: match[2] } : { field: '', message };
}

/** Reads one entry of any field-error list shape: {field,message}, {path,message}, {loc,msg}, a string. */
function toFieldError(entry: unknown): PartnerFieldError | null {
  if (typeof entry === 'string') return { field: '', message: entry };
  if (!isObj(entry)) return null;
  const message = str(entry.message) ?? str(entry.msg) ?? str(entry.detail) ?? str(entry.error);
  let field = str(entry.field) ?? str(entry.param) ?? str(entry.property);
  if (field === null && entry.path !== undefined) field = locToField(entry.path);
  if (field === null && entry.loc !== undefined) field = locToField(entry.loc);
  if (message === null && field === null) return null;
  if (field === null && message !== null) return fieldFromMessage(message);
  return { field: field ?? '', message: message ?? 'invalid' };
}

function fieldErrorsFrom(value: unknown): PartnerFieldError[] {
  if (Array.isArray(value)) {
    return value.map(toFieldError).filter((e): e is PartnerFieldError => e !== null);
  }
  // `details` as an object of field → message (or → [messages]).
  if (isObj(value)) {
    const out: PartnerFieldError[] = [];
    for (const [field, v] of Object.entries(value)) {
      if (typeof v === 'string') out.push({ field, message: v });
      else if (Array.isArray(v))
        v.filter((m) => typeof m === 'string').forEach((m) => out.push({ field, message: m }));
    }
    return out;
  }
  return [];
}

/** Per-item answer errors: `{ errors: [{ item_id, message }] }` (spec 4.3 rule 3). */
function itemErrorsFrom(value: unknown): PartnerItemError[] {
  if (!Array.isArray(value)) return [];
  const out: PartnerItemError[] = [];
  for (const e of value) {
    if (isObj(e) && str(e.item_id) !== null) {
      out.push({ itemId: e.item_id as string, message: str(e.message) ?? str(e.msg) ?? 'invalid' });
    }
  }
  return out;
}

function messageFrom(v: unknown): string | null {
  if (Array.isArray(v)) {
    const parts = v.filter((m): m is string => typeof m === 'string');
    return parts.length > 0 ? parts.join('; ') : null;
  }
  return str(v);
}

/**
 * Tolerates every body shape seen (spec 7.1 table and provider-facts), plus text and empty bodies:
 * { message, code, statusCode, error, timestamp, path, details } · { code, message } ·
 * { code, message, errors: [{ field, message }] } · { code, error, details[] } · { error, details[] } ·
 * { error: { code, message, details } } · { errors: [{ item_id, message }] } · { data: [{ loc, msg, type }], message }.
 * It never throws; what it cannot read stays in the raw body the error keeps.
 */
export function parseErrorBody(body: unknown): ParsedErrorBody {
  const result: ParsedErrorBody = {
    code: null,
    message: null,
    details: undefined,
    fieldErrors: [],
    itemErrors: [],
  };
  if (typeof body === 'string') {
    const text = body.trim();
    if (text.startsWith('{') || text.startsWith('[')) {
      try {
        return parseErrorBody(JSON.parse(text) as unknown);
      } catch {
        // not JSON after all: fall through and keep it as text
      }
    }
    // A bare text/HTML body (e.g. the 500 above limit=100): keep a short, single-line excerpt.
    result.message = text.length > 0 ? text.replace(/\s+/g, ' ').slice(0, 200) : null;
    return result;
  }
  if (Buffer.isBuffer(body)) return parseErrorBody(body.toString('utf8'));
  if (!isObj(body)) return result;

  result.code = normaliseErrorCode(body.code);
  // The gateway's AccessDeniedException body capitalises it: { Message } (evidence §11 N8).
  result.message = messageFrom(body.message) ?? messageFrom(body.Message);
  result.details = body.details;

  if (isObj(body.error)) {
    // { error: { code, message, details } }
    const inner = body.error;
    result.code ??= normaliseErrorCode(inner.code);
    result.message ??= messageFrom(inner.message);
    if (result.details === undefined) result.details = inner.details;
    result.fieldErrors.push(...fieldErrorsFrom(inner.details), ...fieldErrorsFrom(inner.errors));
  } else if (typeof body.error === 'string') {
    // Nest's { statusCode, error: 'Bad Request' } names the reason; { code, error } may carry the message.
    result.message ??= body.error;
  }

  if (Array.isArray(body.errors)) {
    result.itemErrors.push(...itemErrorsFrom(body.errors));
    const nonItem = body.errors.filter((e) => !(isObj(e) && str(e.item_id) !== null));
    result.fieldErrors.push(...fieldErrorsFrom(nonItem));
  } else if (isObj(body.errors)) {
    result.fieldErrors.push(...fieldErrorsFrom(body.errors));
  }
  // The standard error's `details` is "any" (spec 7.1): as an object it may be context rather than
  // field problems, so it is read into fieldErrors but not spelled into the message.
  const contextDetails = isObj(body.details) && !isObj(body.error) ? fieldErrorsFrom(body.details) : [];
  if (body.details !== undefined && !isObj(body.error))
    result.fieldErrors.push(...(isObj(body.details) ? contextDetails : fieldErrorsFrom(body.details)));
  // { data: [{ loc, msg, type }], message }
  if (Array.isArray(body.data)) {
    result.fieldErrors.push(...fieldErrorsFrom(body.data));
    if (result.details === undefined) result.details = body.data;
  }
  // { detail: [...] } (same validator family as { data: [{ loc }] }) or { detail: 'text' }.
  if (Array.isArray(body.detail)) result.fieldErrors.push(...fieldErrorsFrom(body.detail));
  else result.message ??= str(body.detail);

  if (result.message === null && result.itemErrors.length > 0) {
    result.message = result.itemErrors.map((e) => `${e.itemId}: ${e.message}`).join('; ');
  }
  const listed = result.fieldErrors.filter((e) => !contextDetails.includes(e));
  if (listed.length > 0) result.message = withFieldErrors(result.message, listed);
  else if (result.message === null && result.fieldErrors.length > 0)
    result.message = withFieldErrors(null, result.fieldErrors);
  return result;
}

/**
 * The message with the field problems joined in (`path: message`, evidence §2 [T1 KiraErrorParser]):
 * the Zod shape's message is a generic "Invalid request data" that names no field. Entries the
 * message already says are not repeated; at most 5 are added, so a log line stays short.
 */
function withFieldErrors(message: string | null, fieldErrors: PartnerFieldError[]): string {
  const parts = fieldErrors
    .map((e) => (e.field ? `${e.field}: ${e.message}` : e.message))
    .filter((p) => message === null || !message.includes(p));
  if (parts.length === 0) return message as string;
  const shown = parts.slice(0, 5).join('; ') + (parts.length > 5 ? `; and ${parts.length - 5} more` : '');
  return message === null ? shown : `${message}: ${shown}`;
}
