/**
 * A small reader that checks a JSON body field by field and collects every problem the way the
 * partner reports it (evidence §2 shape Z: the partner validates with Zod, so each problem is a
 * `{ path, message, code }` issue with Zod's wording, e.g. "Required", "Expected object, received
 * string", "Invalid enum value. Expected 'a' | 'b', received 'c'"). Paths are dotted strings
 * (`account.bank_address.street_name`), as in the evidence's `details[0].path: "country_code"`.
 * Written by hand: the sandbox carries no schema library, and only these few rules are needed.
 */
export interface SchemaIssue {
  path: string;
  message: string;
  code: string;
}

export type JsonObject = Record<string, unknown>;

export const isJsonObject = (v: unknown): v is JsonObject =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/** Zod's name for the type it received ("received null", "received array"). */
export function receivedType(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'array';
  return typeof v;
}

export interface StringRule {
  required?: boolean;
  min?: number;
  max?: number;
  /** Exact lengths allowed (SWIFT codes are 8 or 11). */
  lengths?: readonly number[];
  pattern?: RegExp;
  /** Message when `pattern` or `lengths` fails (Zod's custom message). */
  patternMessage?: string;
  oneOf?: readonly string[];
  literal?: string;
  email?: boolean;
}

/**
 * The sandbox's email rule: one `@`, no whitespace, a dot inside the domain. Zod's email check has
 * no length cap, so none here either; it runs in linear time (the one-regex form
 * `^[^\s@]+@[^\s@]+\.[^\s@]+$` backtracks quadratically on a long run of dots and would block
 * the sandbox on one long hostile value).
 */
export function isEmailShaped(value: string): boolean {
  // Two classes split by the one `@` neither holds: no backtracking.
  if (!/^[^\s@]+@[^\s@]+$/.test(value)) return false;
  return value
    .slice(value.indexOf('@') + 1)
    .slice(1, -1)
    .includes('.');
}

export class SchemaReader {
  readonly issues: SchemaIssue[] = [];

  add(path: string, message: string, code = 'custom'): void {
    this.issues.push({ path, message, code });
  }

  /** The value of `key`, or undefined after recording why it is not a string that passes `rule`. */
  string(obj: JsonObject, key: string, path: string, rule: StringRule = {}): string | undefined {
    const v = obj[key];
    if (v === undefined) {
      if (rule.required) this.add(path, 'Required', 'invalid_type');
      return undefined;
    }
    if (typeof v !== 'string') {
      this.add(path, `Expected string, received ${receivedType(v)}`, 'invalid_type');
      return undefined;
    }
    if (rule.literal !== undefined && v !== rule.literal) {
      this.add(path, `Invalid literal value, expected "${rule.literal}"`, 'invalid_literal');
      return undefined;
    }
    if (rule.oneOf && !rule.oneOf.includes(v)) {
      const expected = rule.oneOf.map((o) => `'${o}'`).join(' | ');
      this.add(path, `Invalid enum value. Expected ${expected}, received '${v}'`, 'invalid_enum_value');
      return undefined;
    }
    const min = rule.min ?? (rule.required ? 1 : undefined);
    if (min !== undefined && v.length < min) {
      this.add(path, `String must contain at least ${min} character(s)`, 'too_small');
      return undefined;
    }
    if (rule.max !== undefined && v.length > rule.max) {
      this.add(path, `String must contain at most ${rule.max} character(s)`, 'too_big');
      return undefined;
    }
    if (rule.email && !isEmailShaped(v)) {
      this.add(path, 'Invalid email', 'invalid_string');
      return undefined;
    }
    if ((rule.lengths && !rule.lengths.includes(v.length)) || (rule.pattern && !rule.pattern.test(v))) {
      this.add(path, rule.patternMessage ?? 'Invalid', rule.pattern ? 'invalid_string' : 'custom');
      return undefined;
    }
    return v;
  }

  /** An object field; undefined (after recording why) when it is absent or not an object. */
  object(obj: JsonObject, key: string, path: string, required: boolean): JsonObject | undefined {
    const v = obj[key];
    if (v === undefined) {
      if (required) this.add(path, 'Required', 'invalid_type');
      return undefined;
    }
    if (!isJsonObject(v)) {
      this.add(path, `Expected object, received ${receivedType(v)}`, 'invalid_type');
      return undefined;
    }
    return v;
  }
}

/** Copies the defined entries only (the partner omits empty fields instead of sending null). */
export function definedEntries(entries: Record<string, unknown>): JsonObject {
  const out: JsonObject = {};
  for (const [k, v] of Object.entries(entries)) if (v !== undefined) out[k] = v;
  return out;
}
