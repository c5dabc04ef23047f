import {
  buildDepositFundsReceived,
  buildDepositSource,
  buildFlatEvent,
  buildPayoutProgress,
  buildPayoutStatusChanged,
  buildPayoutTerminal,
  buildUserCreated,
  buildUserLivenessCompleted,
  buildUserStatusChanged,
  buildUserUpdated,
  buildUserVerificationFailed,
  buildVirtualAccountCreated,
  eventIdOf,
} from './event-builders.util';

const recipient = { recipient_id: 'r1', name: 'Ada' };

describe('event builders (spec 6.2-6.4)', () => {
  it('flat envelope: { event, data: { event_id } } with no root event_id; ids are fresh unless given', () => {
    const a = buildUserUpdated({ user_id: 'u1' });
    const b = buildUserUpdated({ user_id: 'u1' });
    expect(Object.keys(a).sort()).toEqual(['data', 'event']);
    expect(a.data.event_id).toMatch(/^[0-9a-f-]{36}$/);
    expect(a.data.event_id).not.toBe(b.data.event_id);
    expect(buildUserUpdated({ user_id: 'u1', event_id: 'fixed' }).data.event_id).toBe('fixed');
  });

  it('metadata only on user.created and virtual_account.created, {} when empty (6.4.1)', () => {
    expect(buildUserCreated({ user_id: 'u1' }).data.metadata).toEqual({});
    expect(buildUserCreated({ user_id: 'u1', metadata: { a: '1' } }).data.metadata).toEqual({ a: '1' });
    expect(
      buildVirtualAccountCreated({ virtual_account_id: 'v', user_id: 'u', status: 'approved' }).data.metadata,
    ).toEqual({});
    expect(buildUserUpdated({ user_id: 'u1', metadata: { a: '1' } }).data).not.toHaveProperty('metadata');
    expect(
      buildUserStatusChanged({ user_id: 'u', previous_status: 'A', new_status: 'B', metadata: {} }).data,
    ).not.toHaveProperty('metadata');
    expect(buildFlatEvent('payout.completed', { metadata: { a: '1' } }).data).not.toHaveProperty('metadata');
  });

  it('user.created: a phone the user has not set goes out as "" (evidence §11 N22)', () => {
    const unset = buildUserCreated({ user_id: 'u1', type: 'business', email: 'a@example.com', phone: null });
    expect(unset.data).toMatchObject({ email: 'a@example.com', phone: '' });
    expect(buildUserCreated({ user_id: 'u1', phone: '+15125550100' }).data.phone).toBe('+15125550100');
    expect(buildUserCreated({ user_id: 'u1' }).data).not.toHaveProperty('phone');
  });

  it('user.verification.failed carries reasons; user.liveness_completed person_reference_id (6.4.2)', () => {
    const failed = buildUserVerificationFailed({ user_id: 'u', reasons: ['declined'] });
    expect(failed.event).toBe('user.verification.failed');
    // evidence §9: { event_id, user_id, verification_status: "rejected", reasons[] }
    expect(failed.data).toEqual({
      event_id: expect.any(String),
      user_id: 'u',
      verification_status: 'rejected',
      reasons: ['declined'],
    });
    expect(
      buildUserLivenessCompleted({ user_id: 'u', person_reference_id: null }).data.person_reference_id,
    ).toBeNull();
    expect(buildUserLivenessCompleted({ user_id: 'u', person_reference_id: 'ref_1' }).data).toMatchObject({
      person_reference_id: 'ref_1',
      result: 'approved', // evidence §9
    });
  });

  it('deposit source fields by rail (6.4.3)', () => {
    const wire = buildDepositSource('WIRE');
    expect(wire).toMatchObject({
      payment_rail: 'wire',
      sender_name: expect.any(String),
      imad: expect.any(String),
      omad: expect.any(String),
      wire_message: expect.any(String),
    });
    expect(wire).not.toHaveProperty('trace_number');
    const ach = buildDepositSource('ACH', { sender_name: 'Bob' });
    expect(ach).toMatchObject({
      payment_rail: 'ach',
      sender_name: 'Bob',
      sender_account_number: expect.any(String),
      reference_number: expect.any(String),
      trace_number: expect.any(String),
      sec_code: expect.any(String),
      memo: expect.any(String),
    });
    expect(ach).not.toHaveProperty('imad');
    const deposit = buildDepositFundsReceived({
      user_id: 'u',
      virtual_account_id: 'v',
      deposit_id: 'd',
      amount: '1.00',
      currency: 'USD',
      source: wire,
      metadata: {},
    });
    expect(deposit.event).toBe('virtual_account.deposit_funds_received');
    expect(deposit.data).not.toHaveProperty('metadata');
    expect(
      buildDepositFundsReceived(
        {
          user_id: 'u',
          virtual_account_id: 'v',
          deposit_id: 'd',
          amount: '0.1',
          currency: 'USD',
          source: {},
        },
        true,
      ).event,
    ).toBe('virtual_account.microdeposit_funds_received');
  });

  it('progress payout events are flat with lowercase status', () => {
    expect(buildPayoutProgress('payout.pending', { payout_id: 'p' }).data.status).toBe('pending');
    expect(buildPayoutProgress('payout.created', { payout_id: 'p', status: 'CREATED' }).data.status).toBe(
      'created',
    );
  });

  it('terminal payout events: lowercase status, reference_number and recipient, no error_code (6.4.4-6.4.6)', () => {
    const done = buildPayoutTerminal('payout.completed', {
      payout_id: 'p',
      reference_number: 'IMAD1',
      recipient,
      error_code: 'X',
    });
    expect(done.data).toMatchObject({ status: 'completed', reference_number: 'IMAD1', recipient });
    expect(done.data).not.toHaveProperty('error_code');
    expect(done.data).not.toHaveProperty('uetr');
    expect(
      buildPayoutTerminal('payout.returned', { payout_id: 'p', reference_number: null, recipient }).data
        .status,
    ).toBe('returned');
    expect(
      buildPayoutTerminal('payout.failed', {
        payout_id: 'p',
        reference_number: null,
        recipient,
        status: 'CANCELLED',
      }).data.status,
    ).toBe('cancelled');
  });

  it('payout.status_changed: V2 envelope, UPPERCASE statuses, review_reason only when given (6.2, 6.4.7)', () => {
    const v2 = buildPayoutStatusChanged({
      payout_id: 'p',
      status: 'kyt_pending',
      previous_status: 'pending',
      amount: '5.00',
      recipient,
      review_reason: 'kyt',
    });
    expect(v2.event).toBe('payout.status_changed');
    expect(v2.data).toMatchObject({
      event_type: 'payout.status_changed',
      event_id: expect.any(String),
      created_at: expect.any(String),
    });
    expect(v2.data.data).toMatchObject({
      status: 'KYT_PENDING',
      previous_status: 'PENDING',
      amount: '5.00',
      destination_amount: '5.00',
      payout_id: 'p',
      recipient,
      review_reason: 'kyt',
    });
    const plain = buildPayoutStatusChanged({
      payout_id: 'p',
      status: 'COMPLETED',
      previous_status: null,
      amount: '1',
      recipient,
    });
    expect(plain.data.data).not.toHaveProperty('review_reason');
    expect(plain.data.data.previous_status).toBeNull();
    expect(eventIdOf(plain)).toBe(plain.data.event_id);
    expect(eventIdOf({ event_id: 'root' })).toBeUndefined();
  });
});
