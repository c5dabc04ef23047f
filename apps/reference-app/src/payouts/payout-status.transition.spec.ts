import { canonicalPayoutStatus, decidePayoutTransition, isFinalPayoutStatus } from './payout-status.transition';

describe('decidePayoutTransition', () => {
  it.each([
    ['CREATED', 'PENDING'],
    ['PENDING', 'PROCESSING'],
    ['PROCESSING', 'KYT_PENDING'],
    ['KYT_PENDING', 'IN_REVIEW'],
    ['IN_REVIEW', 'COMPLETED'],
    ['KYT_PENDING', 'FAILED'],
    ['PENDING', 'COMPLETED'],
    ['PROCESSING', 'CANCELLED'],
  ])('moves forward %s -> %s', (from, to) => {
    expect(decidePayoutTransition(from, to)).toEqual({ apply: true, next: to, reason: 'advance' });
  });

  it.each([
    ['COMPLETED', 'PROCESSING'],
    ['COMPLETED', 'PENDING'],
    ['COMPLETED', 'IN_REVIEW'],
    ['IN_REVIEW', 'PROCESSING'],
    ['IN_REVIEW', 'KYT_PENDING'],
    ['PROCESSING', 'PENDING'],
    ['KYT_PENDING', 'CREATED'],
  ])('never moves backwards on a late event %s -> %s', (from, to) => {
    expect(decidePayoutTransition(from, to)).toMatchObject({ apply: false, reason: 'stale' });
  });

  it('lets a bank return move COMPLETED to FAILED, from either family', () => {
    expect(decidePayoutTransition('COMPLETED', 'FAILED')).toEqual({ apply: true, next: 'FAILED', reason: 'bank-return' });
    expect(decidePayoutTransition('COMPLETED', 'returned')).toEqual({ apply: true, next: 'FAILED', reason: 'bank-return' });
  });

  it('does not let a cancellation undo a completion', () => {
    expect(decidePayoutTransition('COMPLETED', 'CANCELLED')).toMatchObject({ apply: false, reason: 'stale' });
  });

  it('keeps FAILED and CANCELLED final', () => {
    expect(decidePayoutTransition('FAILED', 'COMPLETED')).toMatchObject({ apply: false, reason: 'final' });
    expect(decidePayoutTransition('CANCELLED', 'FAILED')).toMatchObject({ apply: false, reason: 'final' });
  });

  it('compares case-insensitively (spec 6.4.5) and treats a repeat as no change', () => {
    expect(decidePayoutTransition('PROCESSING', 'completed')).toEqual({ apply: true, next: 'COMPLETED', reason: 'advance' });
    expect(decidePayoutTransition('COMPLETED', 'completed')).toMatchObject({ apply: false, reason: 'same' });
  });

  it('accepts any known status for a payout it has never seen', () => {
    expect(decidePayoutTransition(null, 'in_review')).toEqual({ apply: true, next: 'IN_REVIEW', reason: 'initial' });
  });

  it('never applies a status it cannot place in the order', () => {
    expect(decidePayoutTransition('PROCESSING', 'ON_HOLD_FOR_LUNCH')).toMatchObject({ apply: false, reason: 'unknown-status' });
    expect(decidePayoutTransition(null, 'mystery')).toMatchObject({ apply: false, reason: 'unknown-status' });
  });
});

describe('payout status helpers', () => {
  it('maps payout.returned to the resource status FAILED and knows what is final', () => {
    expect(canonicalPayoutStatus(' returned ')).toBe('FAILED');
    expect(isFinalPayoutStatus('cancelled')).toBe(true);
    expect(isFinalPayoutStatus('COMPLETED')).toBe(false);
  });
});
