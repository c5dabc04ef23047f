import { parsePartnerEnvelope } from './envelope.util';
import { PartnerPayoutStatusDeduper } from './payout-status-deduper.service';
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
      source: 'webhook',
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
    'V2 %s is FAILED like its granular twin %s, raw status kept, announced once',
    (raw, twin, flatRaw) => {
      const fromV2 = toPartnerPayoutStatusEvent(v2({ payout_id: 'p3', status: raw }));
      const fromFlat = toPartnerPayoutStatusEvent(flat(twin, { payout_id: 'p3', status: flatRaw }));
      expect(fromV2).toMatchObject({ status: 'FAILED', rawStatus: raw });
      expect(fromFlat).toMatchObject({ status: 'FAILED' });
      const deduper = new PartnerPayoutStatusDeduper();
      expect(deduper.claim(fromFlat!.payoutId, fromFlat!.status)).toBe(true);
      expect(deduper.claim(fromV2!.payoutId, fromV2!.status)).toBe(false);
    },
  );

  it('is null for non-payout events and for payout events without payout_id or status', () => {
    expect(toPartnerPayoutStatusEvent(flat('user.created', { user_id: 'u', metadata: {} }))).toBeNull();
    expect(toPartnerPayoutStatusEvent(flat('payout.completed', { status: 'completed' }))).toBeNull();
    expect(toPartnerPayoutStatusEvent(v2({ payout_id: 'p3' }))).toBeNull();
  });
});

describe('PartnerPayoutStatusDeduper (spec 6.4.7)', () => {
  it('lets the first of payout.completed / payout.status_changed COMPLETED through, not the second', () => {
    const d = new PartnerPayoutStatusDeduper();
    const a = toPartnerPayoutStatusEvent(flat('payout.completed', { payout_id: 'p1', status: 'completed' }));
    const b = toPartnerPayoutStatusEvent(
      v2({ payout_id: 'p1', status: 'COMPLETED', previous_status: 'PROCESSING' }),
    );
    expect(d.claim(a!.payoutId, a!.status)).toBe(true);
    expect(d.claim(b!.payoutId, b!.status)).toBe(false);
    expect(d.claim('p1', 'FAILED')).toBe(true); // a later bank return is a new transition
    expect(d.claim('p2', 'COMPLETED')).toBe(true); // another payout
  });

  it('forgets after the window, and on forget()', () => {
    let now = 0;
    const d = new PartnerPayoutStatusDeduper({ windowMs: 1_000, now: () => now });
    expect(d.claim('p', 'PENDING')).toBe(true);
    now = 999;
    expect(d.claim('p', 'PENDING')).toBe(false);
    now = 2_100;
    expect(d.claim('p', 'PENDING')).toBe(true);
    d.forget('p', 'PENDING');
    expect(d.claim('p', 'PENDING')).toBe(true);
  });

  it('is bounded: the least recently seen key is evicted', () => {
    const d = new PartnerPayoutStatusDeduper({ maxKeys: 2 });
    d.claim('a', 'X');
    d.claim('b', 'X');
    d.claim('c', 'X');
    expect(d.size).toBe(2);
    expect(d.claim('a', 'X')).toBe(true); // evicted, so no longer suppressed
    expect(d.claim('c', 'X')).toBe(false);
  });
});
