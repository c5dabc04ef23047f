import { PartnerFieldError } from '../../errors/partner.errors';
import { RfiAnswerInput, RfiChoiceOption, RfiChoiceScalar, RfiItem } from './rfi.model';
import { parseIsoDate } from '../shared/calendar-date.util';
import { checkIdentifierFormat, isAtLeastAge } from './answer-format.rules';
import { describeType, isPlainObject, throwIfAny, UUID_PATTERN } from '../shared/validation.util';

/**
 * RFI answers checked before PATCH /v1/rfis/{rfi_id}/items (spec 4.3, 2.1, 8; provider-facts "RFIs").
 * A PATCH is all or nothing on the server (provider-facts), so one bad answer would refuse the whole
 * call: catching it locally names every bad item at once and sends nothing.
 */

export interface RfiAnswerValidationOptions {
  /** "today" for date min_age checks; defaults to the current time. Injected by tests. */
  now?: Date;
}

function isScalar(value: unknown): value is RfiChoiceScalar {
  return typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean';
}

function num(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isFinite(value) ? value : undefined;
}

function optionValue(option: RfiChoiceOption): RfiChoiceScalar | undefined {
  if (isScalar(option)) return option;
  return isPlainObject(option) && isScalar(option.value) ? option.value : undefined;
}

function mustBe(kind: string, value: unknown): string {
  return `must be ${kind} for this item (got ${describeType(value)})`;
}

/**
 * Checks one answer against a known item's answer_type and answer_spec; returns messages (empty when
 * the answer fits). Keys of answer_spec with an unexpected type are ignored rather than trusted.
 */
export function checkAnswerAgainstItem(
  value: unknown,
  item: RfiItem,
  options: RfiAnswerValidationOptions = {},
): string[] {
  const errors: string[] = [];
  switch (item.answer_type) {
    case 'text_short':
    case 'text_long': {
      if (typeof value !== 'string') return [mustBe('a string', value)];
      // An empty or blank answer answers nothing; the sandbox refuses it (422), so it is never sent.
      if (value.trim() === '') return ['must be a non-empty string'];
      const max = num(item.answer_spec?.max_length);
      // spec 8 "Text length": answer_spec.max_length; spec 7.4 names "an answer longer than the maximum".
      // Counted in UTF-16 code units (`length`), as the partner counts its other string limits with
      // Zod (metadata.rules.ts) and as the sandbox counts this one: counted in code points, 26 emoji
      // passed a max_length of 50 here and went out to be refused.
      if (max !== undefined && value.length > max) {
        errors.push(`must be at most ${max} characters (UTF-16 code units; got ${value.length})`);
      }
      const formatError = checkIdentifierFormat(value, item.answer_spec?.format);
      if (formatError) errors.push(formatError);
      return errors;
    }
    case 'number': {
      if (typeof value !== 'number') return [mustBe('a number', value)];
      const min = num(item.answer_spec?.min);
      const max = num(item.answer_spec?.max);
      if (min !== undefined && value < min) errors.push(`must be at least ${min}`);
      if (max !== undefined && value > max) errors.push(`must be at most ${max}`);
      return errors;
    }
    case 'boolean':
      return typeof value === 'boolean' ? [] : [mustBe('a boolean', value)];
    case 'date': {
      if (typeof value !== 'string') return [mustBe('a date string yyyy-mm-dd', value)];
      const date = parseIsoDate(value);
      if (!date) return ['must be a calendar date yyyy-mm-dd'];
      const minAge = num(item.answer_spec?.min_age);
      if (minAge !== undefined && !isAtLeastAge(date, minAge, options.now ?? new Date())) {
        errors.push(`must be a birth date at least ${minAge} years ago`);
      }
      return errors;
    }
    case 'choice': {
      if (!isScalar(value)) return [mustBe('one of the options', value)];
      const opts = item.answer_spec?.options;
      if (!Array.isArray(opts)) return [];
      const allowed = opts.map(optionValue).filter((v): v is RfiChoiceScalar => v !== undefined);
      if (!allowed.includes(value)) {
        errors.push(`must be one of ${allowed.map((v) => JSON.stringify(v)).join(', ')}`);
      }
      return errors;
    }
    case 'identifier': {
      if (typeof value !== 'string') return [mustBe('a string', value)];
      const formatError = checkIdentifierFormat(value, item.answer_spec?.format);
      return formatError ? [formatError] : [];
    }
    case 'ubo_link':
      return typeof value === 'string' ? [] : [mustBe('a string', value)];
    default:
      // An answer_type this version does not know: the shape check already ran; the server decides.
      return [];
  }
}

/** Every problem with a PATCH items array, without throwing. */
export function collectRfiAnswerErrors(
  items: unknown,
  knownItems?: readonly RfiItem[],
  options: RfiAnswerValidationOptions = {},
): PartnerFieldError[] {
  // spec 4.3 / 8 "Items per PATCH": at least 1.
  if (!Array.isArray(items))
    return [{ field: 'items', message: `must be an array (got ${describeType(items)})` }];
  if (items.length === 0) return [{ field: 'items', message: 'must name at least one item (spec 4.3)' }];

  const known = new Map<string, RfiItem>();
  for (const item of knownItems ?? []) {
    // Items come from the server: skip any without a usable id rather than throw on them.
    if (typeof item?.item_id === 'string') known.set(item.item_id.toLowerCase(), item);
  }
  const seen = new Map<string, number>();
  const errors: PartnerFieldError[] = [];

  items.forEach((entry: unknown, i) => {
    const at = `items[${i}]`;
    if (!isPlainObject(entry)) {
      errors.push({
        field: at,
        message: `must be an object { item_id, answer_value } (got ${describeType(entry)})`,
      });
      return;
    }
    const { item_id: itemId, answer_value: value } = entry;
    let item: RfiItem | undefined;
    if (typeof itemId !== 'string' || !UUID_PATTERN.test(itemId)) {
      errors.push({ field: `${at}.item_id`, message: 'must be a uuid' });
    } else {
      const key = itemId.toLowerCase();
      const first = seen.get(key);
      if (first !== undefined) {
        // Two answers for one item in one call: which one wins is not specified, so refuse it.
        errors.push({ field: `${at}.item_id`, message: `duplicate of items[${first}].item_id` });
      } else {
        seen.set(key, i);
      }
      item = known.get(key);
    }

    if (item?.answer_type === 'document') {
      errors.push({
        field: `${at}.item_id`,
        message: 'is a document item: upload files instead (spec 4.3 rule 2)',
      });
      return;
    }
    // spec 4.3: answer_value is a string, number or boolean. NaN/Infinity would serialise as null.
    if (!isScalar(value) || (typeof value === 'number' && !Number.isFinite(value))) {
      const got = typeof value === 'number' ? String(value) : describeType(value);
      errors.push({
        field: `${at}.answer_value`,
        message: `must be a string, a finite number or a boolean (got ${got})`,
      });
      return;
    }
    if (item) {
      for (const message of checkAnswerAgainstItem(value, item, options)) {
        errors.push({ field: `${at}.answer_value`, message });
      }
    }
  });
  return errors;
}

/**
 * Throws PartnerLocalValidationError naming every bad answer (`items[2].answer_value`, ...).
 * `knownItems` are the RFI's items when the caller has them (passed in, or fetched by the client):
 * answers to known items are checked against answer_type and answer_spec; answers to items not in
 * the list only get the shape check (the server decides, spec 4.3 rule 3).
 */
export function validateRfiAnswers(
  items: unknown,
  knownItems?: readonly RfiItem[],
  options: RfiAnswerValidationOptions = {},
): asserts items is RfiAnswerInput[] {
  throwIfAny(collectRfiAnswerErrors(items, knownItems, options));
}
