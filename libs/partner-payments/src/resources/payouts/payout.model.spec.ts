import {
  canAdvancePayoutStatus,
  decidePayoutStatusChange,
  isFinalPayoutStatus,
  isTerminalPayoutStatus,
  normalisePayoutStatus,
  payoutStatusRank,
} from './payout.model';
import { toPartnerPayout } from './payout-mapper.util';

describe('payout model (spec 3.4, provider-facts "Payouts")', () => {
  it("normalises create's id + lowercase status", () => {
    const p = toPartnerPayout({
      id: 'p-1',
      status: 'created',
      amount: '100.00',
      currency: 'USD',
      recipient_id: 'r-1',
    });
    expect(p).toMatchObject({
      payoutId: 'p-1',
      status: 'CREATED',
      rawStatus: 'created',
      amount: '100.00',
      currency: 'USD',
      recipientId: 'r-1',
    });
    expect(p.referenceNumber).toBeNull();
    expect(p.errorCode).toBeNull();
  });

  it("normalises read's payout_id + UPPERCASE + from_amount", () => {
    const p = toPartnerPayout({
      payout_id: 'p-2',
      user_id: 'u-1',
      recipient_id: 'r-2',
      status: 'FAILED',
      from_amount: '12.50',
      from_currency: 'USD',
      reference_number: 'IMAD123',
      error_code: 'R01',
      events: [],
    });
    expect(p).toMatchObject({
      payoutId: 'p-2',
      userId: 'u-1',
      status: 'FAILED',
      amount: '12.50',
      currency: 'USD',
      referenceNumber: 'IMAD123',
      errorCode: 'R01',
    });
    expect(p.raw.events).toEqual([]);
  });

  it('reads a recipient object and a wrapped body', () => {
    expect(
      toPartnerPayout({ data: { payout_id: 'p-3', status: 'pending', recipient: { recipient_id: 'r-3' } } }),
    ).toMatchObject({
      payoutId: 'p-3',
      status: 'PENDING',
      recipientId: 'r-3',
    });
  });

  it('refuses a body without an id', () => {
    expect(() => toPartnerPayout({ status: 'CREATED' })).toThrow(TypeError);
  });

  it('normalisePayoutStatus compares case-insensitively and maps aliases', () => {
    expect(normalisePayoutStatus(' kyt_pending ')).toBe('KYT_PENDING');
    expect(normalisePayoutStatus('in-review')).toBe('IN_REVIEW');
    expect(normalisePayoutStatus('canceled')).toBe('CANCELLED');
    expect(normalisePayoutStatus('returned')).toBe('FAILED');
    expect(normalisePayoutStatus(undefined)).toBe('');
  });

  it('terminal vs final', () => {
    expect(isTerminalPayoutStatus('completed')).toBe(true);
    expect(isFinalPayoutStatus('COMPLETED')).toBe(false); // a bank return can still move it
    expect(isFinalPayoutStatus('failed')).toBe(true);
    expect(isFinalPayoutStatus('CANCELLED')).toBe(true);
    for (const s of ['CREATED', 'PENDING', 'PROCESSING', 'KYT_PENDING', 'IN_REVIEW', 'SOMETHING_NEW']) {
      expect(isTerminalPayoutStatus(s)).toBe(false);
    }
  });

  it('refuses backwards moves, allows COMPLETED → FAILED, never leaves FAILED/CANCELLED', () => {
    expect(payoutStatusRank('PENDING')).toBeLessThan(payoutStatusRank('PROCESSING') as number);
    expect(canAdvancePayoutStatus('PROCESSING', 'PENDING')).toBe(false);
    expect(canAdvancePayoutStatus('COMPLETED', 'PROCESSING')).toBe(false);
    expect(canAdvancePayoutStatus('COMPLETED', 'FAILED')).toBe(true);
    expect(canAdvancePayoutStatus('FAILED', 'COMPLETED')).toBe(false);
    expect(canAdvancePayoutStatus('CANCELLED', 'FAILED')).toBe(false);
    expect(canAdvancePayoutStatus('failed', 'FAILED')).toBe(true);
    expect(canAdvancePayoutStatus('IN_REVIEW', 'PROCESSING')).toBe(true);
    expect(canAdvancePayoutStatus('PROCESSING', 'KYT_PENDING')).toBe(true);
    expect(canAdvancePayoutStatus(null, 'CREATED')).toBe(true);
    expect(canAdvancePayoutStatus('PENDING', 'BRAND_NEW')).toBe(false);
    expect(payoutStatusRank('BRAND_NEW')).toBeNull();
  });
});

describe('decidePayoutStatusChange', () => {
  it.each([
    ['CREATED', 'PENDING'],
    ['PENDING', 'PROCESSING'],
    ['PENDING', 'KYT_PENDING'],
    ['KYT_PENDING', 'PROCESSING'],
    ['PROCESSING', 'IN_REVIEW'],
    ['KYT_PENDING', 'IN_REVIEW'],
    ['IN_REVIEW', 'COMPLETED'],
    ['KYT_PENDING', 'FAILED'],
    ['PENDING', 'COMPLETED'],
    ['PROCESSING', 'CANCELLED'],
  ])('applies %s -> %s', (from, to) => {
    expect(decidePayoutStatusChange(from, to)).toEqual({ apply: true, next: to, reason: 'advance' });
  });

  it.each([
    ['COMPLETED', 'PROCESSING'],
    ['COMPLETED', 'PENDING'],
    ['COMPLETED', 'IN_REVIEW'],
    ['COMPLETED', 'CANCELLED'],
    ['PROCESSING', 'PENDING'],
    ['KYT_PENDING', 'CREATED'],
    ['IN_REVIEW', 'PENDING'],
  ])('never moves backwards on a late event %s -> %s', (from, to) => {
    expect(decidePayoutStatusChange(from, to)).toMatchObject({ apply: false, reason: 'stale' });
  });

  it('moves an event sideways inside the holds only from the status it names as previous (spec 6.4.7)', () => {
    // The granular twin of PENDING -> PROCESSING, arriving after the V2 IN_REVIEW: names no previous.
    expect(decidePayoutStatusChange('IN_REVIEW', 'processing', { previousStatus: null })).toMatchObject({
      apply: false,
      reason: 'stale',
    });
    expect(decidePayoutStatusChange('IN_REVIEW', 'PROCESSING', { previousStatus: 'PENDING' })).toMatchObject({
      apply: false,
      reason: 'stale',
    });
    // The release of the hold, as V2 reports it.
    expect(decidePayoutStatusChange('IN_REVIEW', 'PROCESSING', { previousStatus: 'in_review' })).toEqual({
      apply: true,
      next: 'PROCESSING',
      reason: 'advance',
    });
    // Forward moves and reads of the resource (no previous status given) are not affected.
    expect(decidePayoutStatusChange('PENDING', 'processing', { previousStatus: null })).toMatchObject({
      apply: true,
    });
    expect(decidePayoutStatusChange('IN_REVIEW', 'PROCESSING')).toMatchObject({ apply: true });
    expect(decidePayoutStatusChange('IN_REVIEW', 'COMPLETED', { previousStatus: null })).toMatchObject({
      apply: true,
    });
  });

  it('lets a bank return move COMPLETED to FAILED, from either family (spec 3.4, 6.4.6)', () => {
    expect(decidePayoutStatusChange('COMPLETED', 'FAILED')).toEqual({
      apply: true,
      next: 'FAILED',
      reason: 'bank-return',
    });
    expect(decidePayoutStatusChange('COMPLETED', 'returned')).toEqual({
      apply: true,
      next: 'FAILED',
      reason: 'bank-return',
    });
  });

  it('keeps FAILED and CANCELLED final', () => {
    expect(decidePayoutStatusChange('FAILED', 'COMPLETED')).toMatchObject({ apply: false, reason: 'final' });
    expect(decidePayoutStatusChange('CANCELLED', 'FAILED')).toMatchObject({ apply: false, reason: 'final' });
  });

  it('compares case-insensitively (spec 6.4.5) and treats a repeat as no change', () => {
    expect(decidePayoutStatusChange('processing', 'completed')).toEqual({
      apply: true,
      next: 'COMPLETED',
      reason: 'advance',
    });
    expect(decidePayoutStatusChange('COMPLETED', 'completed')).toMatchObject({
      apply: false,
      reason: 'same',
    });
  });

  it('accepts any known status for a payout it has never seen, and any known one over a stored unknown one', () => {
    expect(decidePayoutStatusChange(null, 'in_review')).toEqual({
      apply: true,
      next: 'IN_REVIEW',
      reason: 'initial',
    });
    expect(decidePayoutStatusChange('LEGACY_STATE', 'PENDING')).toEqual({
      apply: true,
      next: 'PENDING',
      reason: 'advance',
    });
  });

  it('never applies a status it cannot place in the order', () => {
    expect(decidePayoutStatusChange('PROCESSING', 'ON_HOLD_FOR_LUNCH')).toMatchObject({
      apply: false,
      reason: 'unknown-status',
    });
    expect(decidePayoutStatusChange(null, 'mystery')).toMatchObject({
      apply: false,
      reason: 'unknown-status',
    });
  });
});
