import { canonicalPartnerStatus } from '../shared/status.util';
import { normalisePayoutStatus, type PartnerPayout } from './payout.model';

const str = (v: unknown): string | null =>
  typeof v === 'string' && v !== '' ? v : typeof v === 'number' && Number.isFinite(v) ? String(v) : null;

/** Normalises a create answer or a read (or a list entry) into one PartnerPayout. */
export function toPartnerPayout(body: unknown): PartnerPayout {
  const raw = (typeof body === 'object' && body !== null && !Array.isArray(body) ? body : {}) as Record<
    string,
    unknown
  >;
  // Some answers nest the resource as { data: {...} } or { payout: {...} }: read through one level.
  const inner = [raw.payout, raw.data].find((v) => typeof v === 'object' && v !== null && !Array.isArray(v));
  const r =
    inner && str(raw.payout_id) === null && str(raw.id) === null ? (inner as Record<string, unknown>) : raw;
  const recipient =
    typeof r.recipient === 'object' && r.recipient !== null ? (r.recipient as Record<string, unknown>) : {};
  const payoutId = str(r.payout_id) ?? str(r.id);
  if (payoutId === null) throw new TypeError('payout body carries neither payout_id nor id');
  const rawStatus = str(r.status) ?? '';
  return {
    payoutId,
    status: normalisePayoutStatus(rawStatus),
    rawStatus,
    userId: str(r.user_id),
    recipientId: str(r.recipient_id) ?? str(recipient.recipient_id) ?? str(recipient.id),
    amount: str(r.amount) ?? str(r.from_amount),
    currency: str(r.currency) ?? str(r.from_currency),
    referenceNumber: str(r.reference_number),
    errorCode: str(r.error_code),
    origin: str(r.origin),
    paymentMethod: str(r.payment_method)?.toLowerCase() ?? null,
    virtualAccountId: str(r.virtual_account_id),
    sender: typeof r.sender === 'object' && r.sender !== null ? (r.sender as Record<string, unknown>) : null,
    recipient: Object.keys(recipient).length > 0 ? recipient : null,
    events: (Array.isArray(r.events) ? r.events : [])
      .filter((e): e is Record<string, unknown> => typeof e === 'object' && e !== null)
      .map((e) => ({
        event_id: str(e.event_id) ?? '',
        status: canonicalPartnerStatus(str(e.status)) ?? '',
        message: str(e.message),
        created_at: str(e.created_at),
      })),
    raw: r,
  };
}
