import { createHash } from 'node:crypto';

/**
 * How the inbox keeps what a partner sends as text. data.event_id and the
 * event name are whatever the JSON holds: any length, U+0000 and lone surrogates (`\ud800`
 * escapes) included. PostgreSQL refuses U+0000 in text and a btree index past ~2.7 kB, and both
 * databases store UTF-8, which turns every lone surrogate into U+FFFD: two different ids would
 * become one and the second event would be dropped as a duplicate.
 */

/**
 * The inbox's primary key: sha256 (hex) over the UTF-16 code units of data.event_id. UTF-16
 * code units are how JavaScript holds the string, so two different ids never share a key,
 * whatever they contain; 64 characters whatever the id's length.
 */
export function inboxEventKey(eventId: string): string {
  return createHash('sha256').update(Buffer.from(eventId, 'utf16le')).digest('hex');
}

/**
 * Partner text as stored: the JSON string escape of the value without its quotes. Lossless (lone
 * surrogates are escaped as `\udXXX`, U+0000 as `\u0000`), NUL-free, and an ordinary id such as
 * `evt_123` is stored as itself (only `"`, `\` and control characters are escaped).
 */
export function toStoredText(value: string): string {
  return JSON.stringify(value).slice(1, -1);
}

/** The exact string back from toStoredText's form. */
export function fromStoredText(stored: string): string {
  return JSON.parse(`"${stored}"`) as string;
}

/**
 * Our own messages (last_error) may quote partner text: kept readable, made storable (U+0000
 * escaped for PostgreSQL, lone surrogates as U+FFFD, which UTF-8 storage would write anyway).
 */
export function toStorableMessage(message: string): string {
  return message.replace(/\u0000/g, '\\u0000').replace(/\p{Cs}/gu, '\ufffd');
}
