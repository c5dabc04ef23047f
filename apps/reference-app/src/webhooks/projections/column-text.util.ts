import { createHash } from 'node:crypto';

/**
 * Partner text as a projection column keeps it (an authentic event's content must not be
 * processed on SQLite and left dead on PostgreSQL). PostgreSQL refuses
 * U+0000 in text and enforces varchar lengths that SQLite ignores; so U+0000 is dropped, a lone
 * surrogate becomes U+FFFD (what UTF-8 storage writes anyway), and the text is cut to `max`
 * characters. For display columns (a sender's name), never for keys.
 */
export function columnText(value: string | null | undefined, max: number): string | null {
  if (value === null || value === undefined) return null;
  return [...value.replace(/\u0000/g, '').replace(/\p{Cs}/gu, '\ufffd')].slice(0, max).join('');
}

/**
 * A key derived from an event id (a deposit event without deposit_id is keyed on its event), within
 * `max` characters: `<prefix><id>` when the id fits and is plain text, else `<prefix>sha256:` and
 * the base64url digest of the id's UTF-16 code units (the inbox's rule), so two ids never share it.
 */
export function eventDerivedKey(prefix: string, eventId: string, max = 64): string {
  const plain = `${prefix}${eventId}`;
  if (plain.length <= max && !/[\u0000\p{Cs}]/u.test(eventId)) return plain;
  return `${prefix}sha256:${createHash('sha256').update(Buffer.from(eventId, 'utf16le')).digest('base64url')}`;
}
