/**
 * Zod's issues as the partner writes them (evidence §2 shape Z), for the user rules: the received
 * type's name, "Required", enum and too-small wording, and the checks of a string field's kind.
 */
import type { ZodIssue } from '../../server/http-errors.util';
import { isEmailShaped } from '../../server/request-schema.util';
import type { UserFieldKind } from './users-fields.rules';

export type Obj = Record<string, unknown>;

export const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
/** Zod's name for a received type. */
const received = (v: unknown): string =>
  v === null
    ? 'null'
    : Array.isArray(v)
      ? 'array'
      : typeof v === 'number' && Number.isNaN(v)
        ? 'nan'
        : typeof v;
export const expected = (path: string, type: string, v: unknown): ZodIssue =>
  v === undefined
    ? { path, message: 'Required', code: 'invalid_type' }
    : { path, message: `Expected ${type}, received ${received(v)}`, code: 'invalid_type' };
export const enumIssue = (path: string, values: readonly string[], v: unknown): ZodIssue => ({
  path,
  message: `Invalid enum value. Expected ${values.map((x) => `'${x}'`).join(' | ')}, received '${String(v)}'`,
  code: 'invalid_enum_value',
});
export const tooSmall = (path: string): ZodIssue => ({
  path,
  message: 'String must contain at least 1 character(s)',
  code: 'too_small',
});

export function isRealDate(v: string): boolean {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(v);
  if (!m) return false;
  const d = new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])));
  return (
    d.getUTCFullYear() === Number(m[1]) &&
    d.getUTCMonth() === Number(m[2]) - 1 &&
    d.getUTCDate() === Number(m[3])
  );
}

export function stringIssue(path: string, kind: UserFieldKind, v: unknown): ZodIssue | undefined {
  if (typeof v !== 'string') return expected(path, 'string', v);
  if (v.trim() === '') return tooSmall(path);
  if (kind === 'alpha3' && !/^[A-Z]{3}$/.test(v))
    // evidence §3: users take alpha-3; the partner echoes `US` unchanged (DRIFT-5), the sandbox refuses it.
    return { path, message: 'Country must be a 3-character ISO code', code: 'custom' };
  if (kind === 'date' && !isRealDate(v)) return { path, message: 'Invalid date', code: 'invalid_string' };
  if (kind === 'email' && !isEmailShaped(v))
    return { path, message: 'Invalid email', code: 'invalid_string' };
  if (kind === 'url' && !/^https?:\/\/[^\s]+$/i.test(v))
    return { path, message: 'Invalid url', code: 'invalid_string' };
  return undefined;
}
