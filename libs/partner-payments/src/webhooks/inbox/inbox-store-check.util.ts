import { PartnerConfigurationError } from '../../errors/partner-api.errors';
import type { PartnerInboxStore } from './inbox.store';

/*
 * options.inboxStore checked at boot (framework-free, called by resolveWebhookOptions). Without
 * it, a store the pipeline cannot call booted quietly and every authentic delivery was answered
 * 500: the partner does not retry (spec 6.1.4), so each of those events was lost.
 */

/** The contract's three methods (PartnerInboxStore), each called by the webhook services. */
export const REQUIRED_INBOX_STORE_METHODS = ['record', 'process', 'drain'] as const;

const EXPECTED = `must be an object with ${REQUIRED_INBOX_STORE_METHODS.map((m) => `${m}()`).join(', ')} functions`;

/**
 * Returns the store, or null when none is given (undefined or null: the module's in-memory store).
 * Throws PartnerConfigurationError naming `field`. Messages name types and methods, never a value.
 */
export function checkInboxStore(value: unknown, field = 'inboxStore'): PartnerInboxStore | null {
  if (value === undefined || value === null) return null;
  // A thenable first: an async factory not awaited. Nest would also await a thenable returned by
  // the provider and inject whatever it resolves to, not the object that was checked.
  if (isThenable(value)) {
    throw new PartnerConfigurationError(
      field,
      `${EXPECTED} (got a Promise: await your factory and pass the store it resolves to)`,
    );
  }
  if (typeof value === 'function') {
    const proto = (value as { prototype?: unknown }).prototype;
    const isStoreClass =
      typeof proto === 'object' &&
      proto !== null &&
      typeof (proto as Record<string, unknown>).record === 'function';
    const name = (value as { name?: unknown }).name;
    const label = typeof name === 'string' && name !== '' ? ` ${name}` : '';
    throw new PartnerConfigurationError(
      field,
      isStoreClass
        ? `${EXPECTED} (got the class${label}: pass an instance, new${label || ' YourStore'}(...))`
        : `${EXPECTED} (got a function)`,
    );
  }
  if (typeof value !== 'object') {
    throw new PartnerConfigurationError(field, `${EXPECTED} (got ${describeType(value)})`);
  }
  const store = value as Record<string, unknown>;
  const missing = REQUIRED_INBOX_STORE_METHODS.filter((m) => typeof store[m] !== 'function');
  if (missing.length > 0) {
    const what = Array.isArray(value) ? 'an array' : 'an object';
    throw new PartnerConfigurationError(
      field,
      `${EXPECTED} (got ${what} without ${missing.map((m) => `${m}()`).join(', ')})`,
    );
  }
  return value as PartnerInboxStore;
}

function isThenable(value: unknown): boolean {
  return (
    (typeof value === 'object' || typeof value === 'function') &&
    value !== null &&
    typeof (value as { then?: unknown }).then === 'function'
  );
}

/** The kind of a value, for a message ("a string"), never the value itself. */
export function describeType(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  const type = typeof value;
  return /^[aeiou]/.test(type) ? `an ${type}` : `a ${type}`;
}
