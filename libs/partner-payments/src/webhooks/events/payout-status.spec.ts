import { parsePartnerEnvelope } from './envelope.util';
import { toPartnerPayoutStatusEvent } from './payout-status.util';

const flat = (event: string, data: Record<string, unknown>) =>
  parsePartnerEnvelope(JSON.stringify({ event, data: { event_id: `e_${event}`, ...data } }));
const v2 = (inner: Record<string, unknown>) =>
  parsePartnerEnvelope(
    JSON.stringify({
      event: 'payout.status_changed',
      data: {
        event_id: 'e_v2',
        event_type: 'payout.status_changed',
        created_at: '2026-04-14T12:00:00Z',
        data: inner,
      },
    }),
  );

describe('toPartnerPayoutStatusEvent (spec 3.4, 6.4.4-6.4.7)', () => {
  it.each([
    ['payout.created', 'created', 'CREATED'],
    ['payout.pending', 'pending', 'PENDING'],
    ['payout.processing', 'processing', 'PROCESSING'],
    ['payout.completed', 'completed', 'COMPLETED'],
    ['payout.failed', 'failed', 'FAILED'],
    ['payout.failed', 'cancelled', 'FAILED'], // ACT-rail cancellation resolves the resource to FAILED
    ['payout.returned', 'returned', 'FAILED'], // a bank return resolves the resource to FAILED
  ])('%s with status %s -> %s, original kept', (name, raw, status) => {
    const unified = toPartnerPayoutStatusEvent(
      flat(name, { payout_id: 'p1', status: raw, reference_number: 'R1' }),
    );
    expect(unified).toEqual({
      payoutId: 'p1',
      status,
      previousStatus: null,
      rawStatus: raw,
      eventName: name,
      eventId: `e_${name}`,
      occurredAt: null,
      referenceNumber: 'R1',
    });
  });

  it('maps payout.status_changed (V2) with KYT_PENDING / IN_REVIEW and the review reason', () => {
    const unified = toPartnerPayoutStatusEvent(
      v2({
        payout_id: 'p2',
        status: 'IN_REVIEW',
        previous_status: 'KYT_PENDING',
        review_reason: 'manual',
        amount: '1',
      }),
    );
    expect(unified).toMatchObject({
      payoutId: 'p2',
      status: 'IN_REVIEW',
      previousStatus: 'KYT_PENDING',
      rawStatus: 'IN_REVIEW',
      eventName: 'payout.status_changed',
      eventId: 'e_v2',
      occurredAt: '2026-04-14T12:00:00Z',
      reviewReason: 'manual',
    });
  });

  it('V2 CANCELLED stays CANCELLED (stopped before sending, evidence §6); the flat ACT cancellation is FAILED (spec 6.4.6)', () => {
    expect(toPartnerPayoutStatusEvent(v2({ payout_id: 'p4', status: 'CANCELLED' }))).toMatchObject({
      status: 'CANCELLED',
      rawStatus: 'CANCELLED',
    });
    expect(
      toPartnerPayoutStatusEvent(flat('payout.failed', { payout_id: 'p4', status: 'cancelled' })),
    ).toMatchObject({ status: 'FAILED', rawStatus: 'cancelled' });
  });

  it.each([['RETURNED', 'payout.returned', 'returned']])(
    'V2 %s is FAILED like its granular twin %s, raw status kept',
    (raw, twin, flatRaw) => {
      const fromV2 = toPartnerPayoutStatusEvent(v2({ payout_id: 'p3', status: raw }));
      const fromFlat = toPartnerPayoutStatusEvent(flat(twin, { payout_id: 'p3', status: flatRaw }));
      expect(fromV2).toMatchObject({ status: 'FAILED', rawStatus: raw });
      expect(fromFlat).toMatchObject({ status: 'FAILED' });
    },
  );

  it('is null for non-payout events and for payout events without payout_id or status', () => {
    expect(toPartnerPayoutStatusEvent(flat('user.created', { user_id: 'u', metadata: {} }))).toBeNull();
    expect(toPartnerPayoutStatusEvent(flat('payout.completed', { status: 'completed' }))).toBeNull();
    expect(toPartnerPayoutStatusEvent(v2({ payout_id: 'p3' }))).toBeNull();
  });
});
