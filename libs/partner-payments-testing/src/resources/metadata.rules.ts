/** Metadata rules of spec 2.5 and 8: string-to-string map, ≤ 50 entries, keys 1–40 chars without [ or ], values ≤ 500. */
export interface FieldError {
  field: string;
  message: string;
}

export const METADATA_MAX_ENTRIES = 50;
export const METADATA_KEY_MAX = 40;
export const METADATA_VALUE_MAX = 500;

/** spec 4.4 / 8: a metadata key (also a filter key) is 1 to 40 characters without [ or ]. */
export function metadataKeyProblem(key: string): string | undefined {
  if (key.length < 1) return 'metadata key must not be empty';
  if (key.length > METADATA_KEY_MAX) return `metadata key must be at most ${METADATA_KEY_MAX} characters`;
  if (key.includes('[') || key.includes(']')) return 'metadata key must not contain [ or ]';
  return undefined;
}

/** Validates a metadata value; `undefined` is allowed (optional). Returns every problem, each naming its field. */
export function validateMetadata(value: unknown, field = 'metadata'): FieldError[] {
  if (value === undefined) return [];
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    return [{ field, message: 'metadata must be an object of string values' }];
  }
  const entries = Object.entries(value as Record<string, unknown>);
  const errors: FieldError[] = [];
  if (entries.length > METADATA_MAX_ENTRIES) {
    errors.push({ field, message: `metadata must have at most ${METADATA_MAX_ENTRIES} entries` });
  }
  for (const [key, v] of entries) {
    const keyProblem = metadataKeyProblem(key);
    if (keyProblem) errors.push({ field: `${field}.${key}`, message: keyProblem });
    if (typeof v !== 'string')
      errors.push({ field: `${field}.${key}`, message: 'metadata values must be strings' });
    else if (v.length > METADATA_VALUE_MAX) {
      errors.push({
        field: `${field}.${key}`,
        message: `metadata value must be at most ${METADATA_VALUE_MAX} characters`,
      });
    }
  }
  return errors;
}

/**
 * Parses `metadata[key]=value` pairs from a raw query string (spec 4.4). Express's query parser
 * would mangle brackets, so the raw search string is read here.
 */
export function parseMetadataFilters(search: string): {
  filters: Record<string, string>;
  errors: FieldError[];
} {
  const filters: Record<string, string> = {};
  const errors: FieldError[] = [];
  for (const [name, value] of new URLSearchParams(search)) {
    if (!name.startsWith('metadata[')) continue;
    if (!name.endsWith(']')) {
      errors.push({ field: name, message: 'metadata filter must be written metadata[key]=value' });
      continue;
    }
    const key = name.slice('metadata['.length, -1);
    const problem = metadataKeyProblem(key);
    if (problem) errors.push({ field: `metadata[${key}]`, message: problem });
    else filters[key] = value;
  }
  return { filters, errors };
}

/** Several filter keys require all of them to match (spec 4.4). */
export function matchesMetadata(metadata: Record<string, string>, filters: Record<string, string>): boolean {
  return Object.entries(filters).every(([k, v]) => metadata[k] === v);
}
