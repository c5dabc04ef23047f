import { RfiIdentifierFormat } from './rfi.model';
import { daysInMonth, type CalendarDate } from '../shared/calendar-date.util';
import { emailProblem } from '../shared/validation.util';

/**
 * Format checks used by the RFI answer validator (provider-facts "RFIs": identifier formats ein,
 * ssn, email, e164, url, country_alpha3; date answers; date min_age). They are deliberately lenient
 * where the provider's exact rule is unknown: a local check must never refuse an answer the server
 * would accept, it only saves a round trip for answers that are certainly wrong.
 */

/** Returns an error message, or undefined when the value fits the format. */
type FormatCheck = (value: string) => string | undefined;

const IDENTIFIER_CHECKS: Record<RfiIdentifierFormat, FormatCheck> = {
  // US EIN: 9 digits, usually written NN-NNNNNNN.
  ein: (v) => (/^\d{2}-?\d{7}$/.test(v) ? undefined : 'must be an EIN (9 digits, e.g. 12-3456789)'),
  // US SSN: 9 digits, usually written NNN-NN-NNNN. Only the shape is checked (sandbox data uses test numbers).
  ssn: (v) =>
    /^(\d{3}-\d{2}-\d{4}|\d{9})$/.test(v) ? undefined : 'must be an SSN (9 digits, e.g. 123-45-6789)',
  email: emailProblem,
  // ITU-T E.164: +, then 2 to 15 digits, no leading zero in the country code.
  e164: (v) =>
    /^\+[1-9]\d{1,14}$/.test(v) ? undefined : 'must be an E.164 phone number (e.g. +14155550100)',
  url: (v) => (isHttpUrl(v) ? undefined : 'must be an absolute http(s) URL'),
  // ISO 3166-1 alpha-3: three letters. The code list itself is not checked (it changes; the server owns it).
  country_alpha3: (v) =>
    /^[A-Za-z]{3}$/.test(v) ? undefined : 'must be an ISO 3166-1 alpha-3 country code (e.g. USA)',
};

function isHttpUrl(value: string): boolean {
  // new URL() trims surrounding whitespace; the server stores the string as sent, so refuse it here.
  if (value.trim() !== value) return false;
  try {
    const url = new URL(value);
    return url.protocol === 'http:' || url.protocol === 'https:';
  } catch {
    return false;
  }
}

/** Checks value against a known identifier format; an unknown format passes (shape-only). */
export function checkIdentifierFormat(value: string, format: unknown): string | undefined {
  if (typeof format !== 'string') return undefined;
  const check = (IDENTIFIER_CHECKS as Record<string, FormatCheck | undefined>)[format.toLowerCase()];
  return check ? check(value) : undefined;
}

function compareDates(a: CalendarDate, b: CalendarDate): number {
  return a.year - b.year || a.month - b.month || a.day - b.day;
}

/**
 * provider-facts: date min_age. The answer is a birth date, and the person must be at least
 * `minAge` full years old on `now` (UTC). Someone born on 29 February turns a year older on
 * 1 March in non-leap years (the cutoff is clamped to 28 February, so 29 February is still after it).
 */
export function isAtLeastAge(birth: CalendarDate, minAge: number, now: Date): boolean {
  const year = now.getUTCFullYear() - minAge;
  const month = now.getUTCMonth() + 1;
  const day = Math.min(now.getUTCDate(), daysInMonth(year, month));
  return compareDates(birth, { year, month, day }) <= 0;
}
