import type { PartnerFieldError } from '../../errors/partner.errors';
import { describeType, isPlainObject } from '../shared/validation.util';

/** A recipient body or one of its nested objects. */
export type Obj = Record<string, unknown>;

const COUNTRY_MESSAGE = 'must be a 2-character ISO code (alpha-2, e.g. US; recipients do not take alpha-3)';
export const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** Collects every field problem of one recipient body, each named by its path. */
export class Collector {
  readonly errors: PartnerFieldError[] = [];

  add(field: string, message: string): void {
    this.errors.push({ field, message });
  }

  /** A string field; reports a missing required one, a wrong type, an empty or too long value. */
  string(obj: Obj, key: string, path: string, required: boolean, max = 500): string | undefined {
    const v = obj[key];
    if (v === undefined || v === null) {
      if (required) this.add(path, 'is required');
      return undefined;
    }
    if (typeof v !== 'string') return void this.add(path, `must be a string, got ${describeType(v)}`);
    if (v.trim() === '') return void this.add(path, 'must not be empty');
    if (v.length > max) return void this.add(path, `must be at most ${max} characters`);
    return v;
  }

  match(obj: Obj, key: string, path: string, required: boolean, re: RegExp, message: string) {
    const v = this.string(obj, key, path, required);
    if (v !== undefined && !re.test(v)) this.add(path, message);
  }

  oneOf(obj: Obj, key: string, path: string, required: boolean, values: readonly string[] | undefined) {
    const v = this.string(obj, key, path, required);
    if (v !== undefined && values && !values.includes(v))
      this.add(path, `must be one of ${values.join(', ')}`);
    return v;
  }

  country(obj: Obj, key: string, path: string, required = false): void {
    this.match(obj, key, path, required, /^[A-Z]{2}$/, COUNTRY_MESSAGE);
  }

  /** A structured address: street_name required, country alpha-2. */
  address(value: unknown, path: string): void {
    if (!isPlainObject(value))
      return void this.add(path, 'must be an object { street_name, city, state, postal_code, country }');
    this.string(value, 'street_name', `${path}.street_name`, true);
    for (const f of ['city', 'state', 'postal_code']) this.string(value, f, `${path}.${f}`, false, 200);
    this.country(value, 'country', `${path}.country`);
  }
}
