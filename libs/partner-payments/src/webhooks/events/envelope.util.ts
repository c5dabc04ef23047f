import { isUtf8 } from 'node:buffer';
import { createHash } from 'node:crypto';
import { canonicalPartnerStatus } from '../../resources/shared/status.util';
import { PartnerEvent, type PartnerEventName } from './partner-event.constants';
import type { AnyPartnerEvent, PartnerUnknownEvent, PartnerWebhookEvent } from './partner-event.types';
import { PartnerWebhookPayloadError } from '../webhook.errors';

const KNOWN_NAMES: ReadonlySet<string> = new Set(Object.values(PartnerEvent));
const V2_EVENT_TYPE = 'payout.status_changed';

export function isKnownPartnerEvent(name: string): name is PartnerEventName {
  return KNOWN_NAMES.has(name);
}

/**
 * Parses a verified delivery (spec 6.2): read `event` first; V2 when data.data is present or
 * data.event_type is payout.status_changed, else flat. event_id comes from data.event_id only
 * (spec 6.2: a root event_id is the legacy envelope, not emitted on 2026-04-14).
 * Throws PartnerWebhookPayloadError (400) when the body is not valid UTF-8, not JSON or not an
 * object with `event`. Unknown event names parse fine (`known: false`): they are acknowledged,
 * never refused (spec 6.1.5).
 */
export function parsePartnerEnvelope(raw: Buffer | string): AnyPartnerEvent | PartnerUnknownEvent {
  const text = decodePartnerBody(raw);
  let body: unknown;
  try {
    // A leading UTF-8 BOM is part of the signed bytes (verified as they are) but not of the JSON
    // (RFC 8259 8.1 lets parsers ignore it); refusing it would lose a validly signed event.
    body = JSON.parse(text.charCodeAt(0) === 0xfeff ? text.slice(1) : text);
  } catch {
    throw new PartnerWebhookPayloadError('Webhook body is not valid JSON');
  }
  if (!isRecord(body)) throw new PartnerWebhookPayloadError('Webhook body is not a JSON object');
  const name = body.event;
  if (typeof name !== 'string' || name.trim() === '') {
    throw new PartnerWebhookPayloadError('Webhook body has no `event` name');
  }
  const data = isRecord(body.data) ? body.data : {};
  // spec 6.2: "if data.data is present" (whatever its value) "or data.event_type equals
  // payout.status_changed". A V2 envelope keeps its payout fields in data.data only.
  const isV2 = data.data !== undefined || data.event_type === V2_EVENT_TYPE;
  const inner = isV2 ? (isRecord(data.data) ? data.data : {}) : data;

  // user.status_changed carries new_status; verification events carry verification_status.
  const rawStatus = pickString(inner, ['new_status', 'status', 'verification_status']);
  const previous = pickString(inner, ['previous_status']);
  const occurredAt = isV2
    ? (pickString(data, ['created_at']) ?? pickString(inner, ['created_at']))
    : pickString(data, ['occurred_at', 'created_at', 'updated_at']);

  const event: PartnerWebhookEvent<string, Record<string, unknown>> = {
    name,
    eventId: pickString(data, ['event_id']) ?? `sha256:${createHash('sha256').update(text).digest('hex')}`,
    envelope: isV2 ? 'v2' : 'flat',
    known: isKnownPartnerEvent(name),
    status: canonicalPartnerStatus(rawStatus),
    rawStatus,
    previousStatus: canonicalPartnerStatus(previous),
    occurredAt,
    payload: data,
    body,
  };
  // The payload types describe what the partner documents; the object itself is passed through
  // untouched (unknown fields preserved), so this narrowing is by name only.
  return event as AnyPartnerEvent | PartnerUnknownEvent;
}

/**
 * The body as text, refusing what is not UTF-8 (RFC 8259 8.1: JSON exchanged between systems is
 * UTF-8). A lossy decoding would turn every bad byte into U+FFFD, so two different event ids
 * would become one and the second event be answered 'duplicate' and lost; refused with a 400
 * after the signature check, the sender sees the problem instead. Valid UTF-8 decodes and encodes
 * back to the same bytes (a leading BOM included), so the inbox keeps exactly what was signed.
 */
export function decodePartnerBody(raw: Buffer | string): string {
  if (typeof raw === 'string') {
    // Text handed in by an app's own route: a lone surrogate has no UTF-8 form (its bytes, as
    // verified, were already U+FFFD).
    if (LONE_SURROGATE.test(raw)) {
      throw new PartnerWebhookPayloadError('Webhook body is not valid UTF-8 (it holds a lone surrogate)');
    }
    return raw;
  }
  if (!isUtf8(raw)) {
    throw new PartnerWebhookPayloadError(
      `Webhook body is not valid UTF-8 (first invalid byte at offset ${firstInvalidUtf8Offset(raw)})`,
    );
  }
  return raw.toString('utf8');
}

/** With the u flag a surrogate pair is one code point, so only an unpaired half matches. */
const LONE_SURROGATE = /\p{Cs}/u;

/**
 * Everything before the first bad sequence decodes exactly, so offsets are exact up to the first
 * U+FFFD that is not the three bytes EF BF BD (a genuine U+FFFD) in the body.
 */
function firstInvalidUtf8Offset(raw: Buffer): number {
  let offset = 0;
  for (const char of raw.toString('utf8')) {
    if (char === '\ufffd' && !(raw[offset] === 0xef && raw[offset + 1] === 0xbf && raw[offset + 2] === 0xbd))
      return offset;
    offset += Buffer.byteLength(char, 'utf8');
  }
  return offset;
}

/** True when the view is one of the documented events, narrowing its payload type. */
export function isKnownPartnerEventView(
  event: AnyPartnerEvent | PartnerUnknownEvent,
): event is AnyPartnerEvent {
  return event.known;
}

/** True when the event_id was not in the body and a hash of the body stands in for it. */
export function hasSyntheticEventId(event: { eventId: string }): boolean {
  return event.eventId.startsWith('sha256:');
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function pickString(source: Record<string, unknown>, keys: string[]): string | null {
  for (const key of keys) {
    const value = source[key];
    if (typeof value === 'string' && value !== '') return value;
    if (typeof value === 'number') return String(value);
  }
  return null;
}
