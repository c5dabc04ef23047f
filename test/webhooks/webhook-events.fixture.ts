/** One body per documented event (spec 6.3), shaped per spec 6.2 / 6.4, for suites that sign their own. */
import { createHmac, randomUUID } from 'node:crypto';
import {
  PartnerInMemoryInboxStore,
  type InboxEventInput,
  type InboxRecordResult,
} from '@partner-payments/nestjs/inbox';

export const sign = (raw: string | Buffer, secret: string): string =>
  createHmac('sha256', secret).update(raw).digest('hex');

const recipient = {
  recipient_id: randomUUID(),
  type: 'business',
  company_name: 'Acme',
  account_type: 'WIRE',
};

export function documentedEventBodies(
  payoutId = randomUUID(),
): Array<{ name: string; body: Record<string, unknown> }> {
  const userId = randomUUID();
  const vaId = randomUUID();
  const flat = (name: string, data: Record<string, unknown>) => ({
    name,
    body: { event: name, data: { event_id: randomUUID(), ...data } },
  });
  return [
    flat('user.created', { user_id: userId, status: 'CREATED', metadata: {} }),
    flat('user.updated', { user_id: userId }),
    flat('user.status_changed', { user_id: userId, previous_status: 'CREATED', new_status: 'VERIFYING' }),
    flat('user.verification.accepted', { user_id: userId, verification_status: 'VERIFIED' }),
    flat('user.verification.failed', {
      user_id: userId,
      verification_status: 'REJECTED',
      reasons: ['declined'],
    }),
    flat('user.liveness_completed', { user_id: userId, person_reference_id: null, result: 'passed' }),
    flat('virtual_account.created', {
      virtual_account_id: vaId,
      user_id: userId,
      status: 'approved',
      metadata: { a: 'b' },
    }),
    flat('virtual_account.deposit_funds_received', {
      user_id: userId,
      virtual_account_id: vaId,
      deposit_id: randomUUID(),
      amount: '100.00',
      currency: 'USD',
      source: { payment_rail: 'wire', sender_name: 'S', imad: 'I' },
    }),
    flat('virtual_account.microdeposit_funds_received', {
      user_id: userId,
      virtual_account_id: vaId,
      deposit_id: randomUUID(),
      amount: '0.01',
      currency: 'USD',
      source: { payment_rail: 'ach', trace_number: 'T' },
    }),
    flat('payout.created', { payout_id: payoutId, status: 'created' }),
    flat('payout.pending', { payout_id: payoutId, status: 'pending' }),
    flat('payout.processing', { payout_id: payoutId, status: 'processing' }),
    {
      name: 'payout.status_changed',
      body: {
        event: 'payout.status_changed',
        data: {
          event_id: randomUUID(),
          event_type: 'payout.status_changed',
          created_at: new Date().toISOString(),
          data: {
            payout_id: payoutId,
            status: 'IN_REVIEW',
            previous_status: 'PROCESSING',
            amount: '10.00',
            recipient,
          },
        },
      },
    },
    flat('payout.completed', {
      payout_id: payoutId,
      status: 'completed',
      reference_number: 'IMAD-1',
      recipient,
    }),
    flat('payout.failed', { payout_id: payoutId, status: 'cancelled', reference_number: null, recipient }),
    flat('payout.returned', {
      payout_id: payoutId,
      status: 'returned',
      reference_number: 'IMAD-1',
      recipient,
    }),
  ];
}

/**
 * An in-memory inbox whose record() takes `delayMs` and can be made to throw: shows whether the
 * 2xx waits for the record (spec 6.1.4: an event is kept before it is acknowledged).
 */
export class ProbeInbox extends PartnerInMemoryInboxStore {
  /** eventIds whose record() has completed. */
  readonly recorded = new Set<string>();
  delayMs = 0;
  failWith: Error | null = null;

  override async record(event: InboxEventInput): Promise<InboxRecordResult> {
    await new Promise((resolve) => setTimeout(resolve, this.delayMs));
    if (this.failWith) throw this.failWith;
    const result = await super.record(event);
    this.recorded.add(event.eventId);
    return result;
  }
}
