import type { AnswerType } from '../../server/rfi-state.types';
import { isEmailShaped } from '../../server/request-schema.util';

/** Formats of identifier answers (provider-facts RFIs: ein, ssn, email, e164, url, country_alpha3). */
export const IDENTIFIER_FORMATS: Record<string, (v: string) => boolean> = {
  ein: (v) => /^\d{2}-?\d{7}$/.test(v),
  ssn: (v) => /^\d{3}-?\d{2}-?\d{4}$/.test(v),
  email: isEmailShaped,
  e164: (v) => /^\+[1-9]\d{1,14}$/.test(v),
  url: (v) => {
    try {
      return ['http:', 'https:'].includes(new URL(v).protocol);
    } catch {
      return false;
    }
  },
  country_alpha3: (v) => /^[A-Z]{3}$/.test(v),
};

function validDate(v: string): Date | undefined {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(v)) return undefined;
  const d = new Date(`${v}T00:00:00Z`);
  return !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === v ? d : undefined;
}

function ageOn(birth: Date, today: Date): number {
  let age = today.getUTCFullYear() - birth.getUTCFullYear();
  const m = today.getUTCMonth() - birth.getUTCMonth();
  if (m < 0 || (m === 0 && today.getUTCDate() < birth.getUTCDate())) age--;
  return age;
}

/**
 * Checks one answer against its item's answer_spec (spec 4.3.3, provider-facts answer_spec keys).
 * Returns the per-item error message, or undefined when the answer is valid.
 */
export function answerProblem(
  item: { answer_type: AnswerType; answer_spec: Record<string, unknown> },
  value: unknown,
  today: Date = new Date(),
): string | undefined {
  const spec = item.answer_spec;
  switch (item.answer_type) {
    case 'document':
      return 'document items are answered by uploading files (POST /v1/rfis/{rfi_id}/items/{item_id}/documents)';
    case 'text_short':
    case 'text_long': {
      if (typeof value !== 'string' || value.trim() === '') return 'answer_value must be a non-empty string';
      const max = typeof spec.max_length === 'number' ? spec.max_length : undefined;
      if (max !== undefined && value.length > max)
        return `answer_value is longer than the maximum length of ${max} characters`;
      const format = typeof spec.format === 'string' ? IDENTIFIER_FORMATS[spec.format] : undefined;
      if (format && !format(value)) return `answer_value must be in ${String(spec.format)} format`;
      return undefined;
    }
    case 'number': {
      if (typeof value !== 'number' || !Number.isFinite(value)) return 'answer_value must be a number';
      if (typeof spec.min === 'number' && value < spec.min)
        return `answer_value must be at least ${spec.min}`;
      if (typeof spec.max === 'number' && value > spec.max) return `answer_value must be at most ${spec.max}`;
      return undefined;
    }
    case 'date': {
      const d = typeof value === 'string' ? validDate(value) : undefined;
      if (!d) return 'answer_value must be a date YYYY-MM-DD';
      if (d.getTime() > today.getTime()) return 'answer_value must not be in the future';
      if (typeof spec.min_age === 'number' && ageOn(d, today) < spec.min_age)
        return `the person must be at least ${spec.min_age} years old`;
      return undefined;
    }
    case 'boolean':
      return typeof value === 'boolean' ? undefined : 'answer_value must be a boolean';
    case 'choice': {
      const options = Array.isArray(spec.options) ? spec.options : [];
      return typeof value === 'string' && options.includes(value)
        ? undefined
        : `answer_value must be one of: ${options.join(', ')}`;
    }
    case 'identifier': {
      if (typeof value !== 'string' || value.trim() === '') return 'answer_value must be a non-empty string';
      const check = typeof spec.format === 'string' ? IDENTIFIER_FORMATS[spec.format] : undefined;
      return check && !check(value) ? `answer_value must be a valid ${String(spec.format)}` : undefined;
    }
    case 'ubo_link':
      return (typeof value === 'string' && value.trim() !== '') || value === true
        ? undefined
        : 'answer_value must confirm the link (a non-empty string or true)';
    default:
      return 'unknown answer_type';
  }
}
