import { canonicalPartnerStatus } from '../../resources/shared/status.util';
import { PartnerEvent } from './partner-event.constants';
import type { PartnerPayoutStatusEvent, PartnerWebhookEvent } from './partner-event.types';

/**
 * The payout resource status each granular flat event stands for (spec 3.4, 6.4.6): a bank return
 * and an ACT-rail cancellation both resolve the resource to FAILED, so payout.returned and
 * payout.failed (status cancelled) map to FAILED; the original is kept in rawStatus.
 */
const FLAT_PAYOUT_STATUS: Readonly<Record<string, string>> = {
  [PartnerEvent.PayoutCreated]: 'CREATED',
  [PartnerEvent.PayoutPending]: 'PENDING',
  [PartnerEvent.PayoutProcessing]: 'PROCESSING',
  [PartnerEvent.PayoutCompleted]: 'COMPLETED',
  [PartnerEvent.PayoutFailed]: 'FAILED',
  [PartnerEvent.PayoutReturned]: 'FAILED',
};

/**
 * spec 3.4: a bank return resolves the resource to FAILED. Should a V2 body ever spell it out, the
 * unified status still uses the resource's word, so it matches the granular twin payout.returned
 * (spec 6.4.7). A V2 CANCELLED is the resource's own final status
 * (stopped before sending, evidence §6 [D get-a-payout]) and stays CANCELLED; only the flat
 * payout.failed with status cancelled (the ACT rail's provider cancellation, spec 6.4.6) is FAILED.
 */
const RESOURCE_STATUS: Readonly<Record<string, string>> = { RETURNED: 'FAILED' };

/**
 * Derives the unified payout status from a payout event of either family (spec 6.4.7), or null
 * when the event is not a payout status (or lacks payout_id / status).
 */
export function toPartnerPayoutStatusEvent(
  event: PartnerWebhookEvent<string, unknown>,
): PartnerPayoutStatusEvent | null {
  const data = asRecord(event.payload);
  if (
    event.name === PartnerEvent.PayoutStatusChanged ||
    (event.envelope === 'v2' && event.name.startsWith('payout.'))
  ) {
    // V2 (spec 6.2): the payout fields are in data.data; status UPPERCASE, previous_status beside it.
    const inner = asRecord(data.data);
    const payoutId = str(inner.payout_id) ?? str(inner.id);
    const canonical = canonicalPartnerStatus(inner.status);
    if (!payoutId || !canonical) return null;
    const status = RESOURCE_STATUS[canonical] ?? canonical;
    return {
      payoutId,
      status,
      previousStatus: canonicalPartnerStatus(inner.previous_status),
      rawStatus: String(inner.status),
      eventName: event.name,
      eventId: event.eventId,
      occurredAt: event.occurredAt,
      ...optional('referenceNumber', inner.reference_number),
      ...optional('errorCode', inner.error_code),
      ...optional('reviewReason', inner.review_reason),
    };
  }
  const mapped = FLAT_PAYOUT_STATUS[event.name];
  if (!mapped) return null;
  const payoutId = str(data.payout_id) ?? str(data.id);
  if (!payoutId) return null;
  return {
    payoutId,
    status: mapped,
    previousStatus: null,
    rawStatus: str(data.status) ?? mapped.toLowerCase(),
    eventName: event.name,
    eventId: event.eventId,
    occurredAt: event.occurredAt,
    ...optional('referenceNumber', data.reference_number),
    ...optional('errorCode', data.error_code),
  };
}

function optional<K extends string>(key: K, value: unknown): Partial<Record<K, string | null>> {
  if (value === undefined) return {};
  return { [key]: value === null ? null : String(value) } as Partial<Record<K, string | null>>;
}

function asRecord(value: unknown): Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : {};
}

function str(value: unknown): string | null {
  return typeof value === 'string' && value !== '' ? value : null;
}
