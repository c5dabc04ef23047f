import { PartnerFieldError } from '../../errors/partner.errors';
import { METADATA_LIMITS, PartnerMetadata, PartnerMetadataFilter } from './metadata.model';
import { describeType, isPlainObject, keyPath, throwIfAny } from './validation.util';

/**
 * Metadata rules checked before any call (spec 2.5 and spec 8 "Metadata"; spec 4.4 for the filter):
 * a plain object of string to string, at most 50 entries, keys 1-40 characters without [ or ],
 * values at most 500 characters.
 *
 * "Characters" are UTF-16 code units (`string.length`), as the partner counts them: it validates
 * with Zod (its 400 bodies are Zod's, evidence §2), whose `max()` reads `.length`. An emoji is 2, so
 * 250 emoji fill a 500-character value. Counting code points here passed values the partner refuses.
 */

/** spec 2.5: "keys 1 to 40 characters without [ or ]" (brackets would collide with metadata[key] query syntax, 4.4). */
function keyErrors(key: string, prefix: string): PartnerFieldError[] {
  const field = keyPath(prefix, key);
  const errors: PartnerFieldError[] = [];
  const len = key.length;
  if (len < METADATA_LIMITS.minKeyLength || len > METADATA_LIMITS.maxKeyLength) {
    errors.push({
      field,
      message: `key must be ${METADATA_LIMITS.minKeyLength} to ${METADATA_LIMITS.maxKeyLength} characters (UTF-16 code units; got ${len})`,
    });
  }
  if (key.includes('[') || key.includes(']')) {
    errors.push({ field, message: 'key must not contain [ or ]' });
  }
  return errors;
}

/** Every problem with a metadata map, without throwing (for callers combining several checks). */
export function collectMetadataErrors(metadata: unknown, fieldPrefix = 'metadata'): PartnerFieldError[] {
  if (!isPlainObject(metadata)) {
    return [
      {
        field: fieldPrefix,
        message: `must be an object of string to string (got ${describeType(metadata)})`,
      },
    ];
  }
  const errors: PartnerFieldError[] = [];
  const keys = Object.keys(metadata);
  if (keys.length > METADATA_LIMITS.maxEntries) {
    errors.push({
      field: fieldPrefix,
      message: `at most ${METADATA_LIMITS.maxEntries} entries (got ${keys.length})`,
    });
  }
  for (const key of keys) {
    errors.push(...keyErrors(key, fieldPrefix));
    const value = metadata[key];
    const field = keyPath(fieldPrefix, key);
    if (typeof value !== 'string') {
      errors.push({ field, message: `value must be a string (got ${describeType(value)})` });
    } else if (value.length > METADATA_LIMITS.maxValueLength) {
      errors.push({
        field,
        message: `value must be at most ${METADATA_LIMITS.maxValueLength} characters (UTF-16 code units; got ${value.length})`,
      });
    }
  }
  return errors;
}

/**
 * Throws PartnerLocalValidationError naming every bad entry (e.g. `metadata.color`,
 * `metadata["a[b]"]`). `fieldPrefix` lets a caller name nested maps (`recipient.metadata`).
 */
export function validateMetadata(
  metadata: unknown,
  fieldPrefix = 'metadata',
): asserts metadata is PartnerMetadata {
  throwIfAny(collectMetadataErrors(metadata, fieldPrefix));
}

/** spec 4.4: the recipients list filter. Same key rule; values strings. No entry-count limit is stated. */
export function collectMetadataFilterErrors(filter: unknown, fieldPrefix = 'metadata'): PartnerFieldError[] {
  if (!isPlainObject(filter)) {
    return [
      { field: fieldPrefix, message: `must be an object of string to string (got ${describeType(filter)})` },
    ];
  }
  const errors: PartnerFieldError[] = [];
  for (const [key, value] of Object.entries(filter)) {
    errors.push(...keyErrors(key, fieldPrefix));
    if (typeof value !== 'string') {
      errors.push({
        field: keyPath(fieldPrefix, key),
        message: `value must be a string (got ${describeType(value)})`,
      });
    }
  }
  return errors;
}

export function validateMetadataFilter(
  filter: unknown,
  fieldPrefix = 'metadata',
): asserts filter is PartnerMetadataFilter {
  throwIfAny(collectMetadataFilterErrors(filter, fieldPrefix));
}

/**
 * Validates the filter and turns it into query parameters `metadata[key]=value` (spec 4.4), as a
 * list of pairs so callers can feed URLSearchParams or axios `params` without re-encoding keys.
 * Encoding of keys and values is left to URLSearchParams / axios (both percent-encode).
 */
export function metadataFilterToQueryParams(
  filter: PartnerMetadataFilter | undefined,
): Array<[string, string]> {
  if (filter === undefined) return [];
  validateMetadataFilter(filter);
  return Object.entries(filter).map(([key, value]): [string, string] => [`metadata[${key}]`, value]);
}
