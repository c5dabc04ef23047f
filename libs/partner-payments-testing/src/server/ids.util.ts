import { randomBytes, randomUUID } from 'node:crypto';

const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const UUID_V4_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/i;

export const newId = (): string => randomUUID();
export const isUuid = (value: unknown): value is string => typeof value === 'string' && UUID_RE.test(value);
/** spec 8: the Idempotency-Key is a UUID v4. */
export const isUuidV4 = (value: unknown): value is string =>
  typeof value === 'string' && UUID_V4_RE.test(value);
export const randomDigits = (length: number): string =>
  Array.from(randomBytes(length), (b) => String(b % 10)).join('');
export const randomHex = (bytes: number): string => randomBytes(bytes).toString('hex');

let lastMs = 0;
/**
 * An ISO timestamp strictly later than the previous one handed out, so `updated_at` moves on every
 * round even when two answers land in the same millisecond (spec 2.1: updated_at moves every round).
 */
export function nowIso(): string {
  const ms = Math.max(Date.now(), lastMs + 1);
  lastMs = ms;
  return new Date(ms).toISOString();
}
