/**
 * Body shapes for conformance probes: field names and types, never values, except
 * where a documented enumeration *is* the behaviour (an error code, a status the partner keeps).
 * A shape describes itself in one line for the report and the README's fidelity table, and the
 * matcher names every path that differs, so a divergence reads "body.id: expected string, absent".
 */

/** A node of the shape language. Build them with `t`; the conformance report prints them. */
export type Shape =
  | { kind: 'string' | 'number' | 'integer' | 'boolean' | 'null' | 'any' }
  | { kind: 'enum'; values: readonly (string | number | boolean)[] }
  | { kind: 'array'; of: Shape }
  | { kind: 'object'; fields: Record<string, Shape>; absent: readonly string[] }
  | { kind: 'optional'; of: Shape }
  | { kind: 'oneOf'; options: readonly Shape[] }
  | { kind: 'nonJson' }
  | { kind: 'unspecified' };

/** Shape builders: `t.object({ id: t.string, status: t.enum('CREATED') })`. */
export const t = {
  string: { kind: 'string' } as Shape,
  number: { kind: 'number' } as Shape,
  integer: { kind: 'integer' } as Shape,
  boolean: { kind: 'boolean' } as Shape,
  null: { kind: 'null' } as Shape,
  any: { kind: 'any' } as Shape,
  /** Any body that is not JSON (or no body at all). */
  nonJson: { kind: 'nonJson' } as Shape,
  /** A body the documents do not show (e.g. a success whose answer is an open question): anything. */
  unspecified: { kind: 'unspecified' } as Shape,
  /** One of the documented values (a code or a status); the only place values are compared. */
  enum: (...values: (string | number | boolean)[]): Shape => ({ kind: 'enum', values }),
  array: (of: Shape): Shape => ({ kind: 'array', of }),
  /** Named fields must match; other fields are allowed, except those listed in `absent`. */
  object: (fields: Record<string, Shape>, absent: readonly string[] = []): Shape => ({
    kind: 'object',
    fields,
    absent,
  }),
  optional: (of: Shape): Shape => ({ kind: 'optional', of }),
  nullable: (of: Shape): Shape => ({ kind: 'oneOf', options: [of, { kind: 'null' }] }),
  oneOf: (...options: Shape[]): Shape => ({ kind: 'oneOf', options }),
};

/** An expectation's status (one, or the several the documents allow) as a list. */
export const statusesOf = (s: number | readonly number[]): readonly number[] =>
  typeof s === 'number' ? [s] : s;

/** A compact one-line description: `{ id: string, status: CREATED|VERIFYING, !user_id }`. */
export function describeShape(shape: Shape): string {
  switch (shape.kind) {
    case 'enum':
      return shape.values.map(String).join('|');
    case 'array':
      return `${describeShape(shape.of)}[]`;
    case 'optional':
      return `${describeShape(shape.of)}?`;
    case 'oneOf':
      return shape.options.map(describeShape).join(' | ');
    case 'nonJson':
      return 'non-JSON';
    case 'unspecified':
      return 'body not shown';
    case 'object': {
      const parts = Object.entries(shape.fields).map(([k, v]) =>
        v.kind === 'optional' ? `${k}?: ${describeShape(v.of)}` : `${k}: ${describeShape(v)}`,
      );
      parts.push(...shape.absent.map((k) => `no ${k}`));
      return parts.length ? `{ ${parts.join(', ')} }` : 'object';
    }
    default:
      return shape.kind;
  }
}

/** The JSON type of a value, as the report prints it (never the value itself). */
export function typeOf(value: unknown): string {
  if (value === undefined) return 'absent';
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  return typeof value;
}

/**
 * A value printed only when it looks like an enumeration member (a word such as `VERIFIED` or
 * `IDEMPOTENCY_CONFLICT`); anything else (ids, numbers, names, account data) is described by type
 * and length, so a report can never carry an account number or a token.
 */
export function safeValue(value: unknown): string {
  if (typeof value === 'boolean') return String(value);
  if (typeof value === 'string' && /^[A-Za-z][A-Za-z_.-]{0,39}$/.test(value)) return `"${value}"`;
  if (typeof value === 'string') return `a string of ${value.length} chars`;
  return typeOf(value);
}

/** Every difference between `value` and `shape`, each as `path: expected X, got Y`. */
export function matchShape(shape: Shape, value: unknown, path = 'body'): string[] {
  switch (shape.kind) {
    case 'any':
      return value === undefined ? [`${path}: expected a value, absent`] : [];
    case 'nonJson':
    case 'unspecified':
      return [];
    case 'string':
    case 'boolean':
    case 'null':
      return typeOf(value) === shape.kind ? [] : [`${path}: expected ${shape.kind}, got ${typeOf(value)}`];
    case 'number':
      return typeof value === 'number' ? [] : [`${path}: expected number, got ${typeOf(value)}`];
    case 'integer':
      return Number.isInteger(value) ? [] : [`${path}: expected integer, got ${typeOf(value)}`];
    case 'enum':
      return shape.values.includes(value as string)
        ? []
        : [`${path}: expected ${describeShape(shape)}, got ${safeValue(value)}`];
    case 'optional':
      return value === undefined ? [] : matchShape(shape.of, value, path);
    case 'oneOf': {
      const all = shape.options.map((o) => matchShape(o, value, path));
      if (all.some((d) => d.length === 0)) return [];
      return [`${path}: expected ${describeShape(shape)}, got ${typeOf(value)}`];
    }
    case 'array': {
      if (!Array.isArray(value)) return [`${path}: expected array, got ${typeOf(value)}`];
      // The first element stands for all: shapes, not contents (and reports stay short).
      return value.length ? matchShape(shape.of, value[0], `${path}[0]`) : [];
    }
    case 'object': {
      if (typeOf(value) !== 'object') return [`${path}: expected object, got ${typeOf(value)}`];
      const record = value as Record<string, unknown>;
      const out: string[] = [];
      for (const [key, field] of Object.entries(shape.fields)) {
        out.push(...matchShape(field, record[key], `${path}.${key}`));
      }
      for (const key of shape.absent) {
        if (key in record) out.push(`${path}.${key}: expected absent, present (${typeOf(record[key])})`);
      }
      return out;
    }
  }
}
