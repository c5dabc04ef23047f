import { Injectable } from '@nestjs/common';
import {
  OnPartnerEvent,
  PartnerDerivedEvent,
  PartnerEvent,
  type PartnerEventOf,
  type PartnerPayoutStatusEvent,
} from '@partner-payments/nestjs';
import { parsePartnerTimestamp } from '@partner-payments/nestjs/models';
import { PayoutProjection } from '../../payouts/payout-projection.service';
import { eventDerivedKey } from './column-text.util';
import { toDepositObservation } from './deposit-observation.util';
import { ResourceProjections } from './resource-projections.service';

type UserEventName =
  | typeof PartnerEvent.UserCreated
  | typeof PartnerEvent.UserUpdated
  | typeof PartnerEvent.UserStatusChanged
  | typeof PartnerEvent.UserVerificationAccepted
  | typeof PartnerEvent.UserVerificationFailed
  | typeof PartnerEvent.UserLivenessCompleted;

/**
 * The app's @OnPartnerEvent handlers: each family of events updates its projection. They run
 * inside the inbox's unit of work (PartnerTypeOrmInboxStore.process), so the projection write and
 * the inbox "processed" mark commit together; a throw rolls both back and the entry is retried.
 * Handlers run at least once (issue: Webhooks): every write here is idempotent.
 */
@Injectable()
export class ProjectionHandlers {
  constructor(
    private readonly payouts: PayoutProjection,
    private readonly resources: ResourceProjections,
  ) {}

  /**
   * One stream for both payout families (spec 6.4.7): the library emits it for each payout.* and
   * payout.status_changed delivery, so one transition usually arrives twice. The projection takes
   * the first and finds the second unchanged, and a granular twin that arrives after a hold names
   * no previous status, so it cannot move the hold sideways (decidePayoutStatusChange).
   * Reconciliation writes the projection itself (payout-settler.service.ts).
   */
  @OnPartnerEvent(PartnerDerivedEvent.PayoutStatus)
  async onPayoutStatus(event: PartnerPayoutStatusEvent): Promise<void> {
    await this.payouts.apply({
      payoutId: event.payoutId,
      status: event.status,
      previousStatus: event.previousStatus,
      source: 'webhook',
      referenceNumber: event.referenceNumber,
      errorCode: event.errorCode,
      reviewReason: event.reviewReason,
    });
  }

  @OnPartnerEvent(PartnerEvent.UserCreated)
  async onUserCreated(event: PartnerEventOf<typeof PartnerEvent.UserCreated>): Promise<void> {
    await this.user(event, { status: event.payload.status ?? 'CREATED', metadata: event.payload.metadata });
  }

  @OnPartnerEvent(PartnerEvent.UserUpdated)
  async onUserUpdated(event: PartnerEventOf<typeof PartnerEvent.UserUpdated>): Promise<void> {
    await this.user(event, { status: event.payload.status });
  }

  @OnPartnerEvent(PartnerEvent.UserStatusChanged)
  async onUserStatusChanged(event: PartnerEventOf<typeof PartnerEvent.UserStatusChanged>): Promise<void> {
    await this.user(event, { status: event.payload.new_status });
  }

  @OnPartnerEvent(PartnerEvent.UserVerificationAccepted)
  async onUserVerified(event: PartnerEventOf<typeof PartnerEvent.UserVerificationAccepted>): Promise<void> {
    await this.user(event, { status: 'VERIFIED' });
  }

  /** spec 6.4.9: sent only for a declined result, so REJECTED is safe to record. */
  @OnPartnerEvent(PartnerEvent.UserVerificationFailed)
  async onUserRejected(event: PartnerEventOf<typeof PartnerEvent.UserVerificationFailed>): Promise<void> {
    await this.user(event, { status: 'REJECTED', rejectionReasons: event.payload.reasons ?? [] });
  }

  @OnPartnerEvent(PartnerEvent.UserLivenessCompleted)
  async onLiveness(event: PartnerEventOf<typeof PartnerEvent.UserLivenessCompleted>): Promise<void> {
    await this.user(event, { livenessResult: event.payload.result ?? 'completed' });
  }

  @OnPartnerEvent(PartnerEvent.VirtualAccountCreated)
  async onVirtualAccountCreated(
    event: PartnerEventOf<typeof PartnerEvent.VirtualAccountCreated>,
  ): Promise<void> {
    const p = event.payload;
    await this.resources.applyVirtualAccount({
      virtualAccountId: p.virtual_account_id,
      userId: p.user_id,
      status: p.status ?? event.status,
      bank: typeof p.bank === 'string' ? p.bank : null,
      accountNumber: typeof p.account_number === 'string' ? p.account_number : null,
      metadata: p.metadata,
      occurredAt: stateTime(event.payload),
    });
  }

  @OnPartnerEvent(PartnerEvent.VirtualAccountDepositFundsReceived)
  async onDeposit(
    event: PartnerEventOf<typeof PartnerEvent.VirtualAccountDepositFundsReceived>,
  ): Promise<void> {
    await this.deposit(event, 'deposit');
  }

  @OnPartnerEvent(PartnerEvent.VirtualAccountMicrodepositFundsReceived)
  async onMicrodeposit(
    event: PartnerEventOf<typeof PartnerEvent.VirtualAccountMicrodepositFundsReceived>,
  ): Promise<void> {
    await this.deposit(event, 'microdeposit');
  }

  /**
   * A refund of a deposit (evidence §5 [T1 REVISION-DOCS §1]: a newer event, no `status`, a
   * `return_details`; receivers should handle it). Not in the contract's 2026-04-14 list, so the
   * partner need not send it: deposit reconciliation also re-reads COMPLETED deposits updated within
   * RECONCILE_COMPLETED_WINDOW_HOURS and finds the refund on the resource; this event only makes it
   * sooner. REFUNDED is final (deposit-status.policy.ts). A refund naming no deposit has no row to
   * correct; the inbox keeps the event.
   */
  @OnPartnerEvent(PartnerEvent.VirtualAccountDepositFundsRefunded)
  async onDepositRefunded(
    event: PartnerEventOf<typeof PartnerEvent.VirtualAccountDepositFundsRefunded>,
  ): Promise<void> {
    const p = event.payload;
    if (typeof p.deposit_id !== 'string' || p.deposit_id === '') return;
    await this.resources.applyDeposit({
      depositId: p.deposit_id,
      kind: 'deposit',
      virtualAccountId: typeof p.virtual_account_id === 'string' ? p.virtual_account_id : null,
      userId: typeof p.user_id === 'string' ? p.user_id : null,
      amount: p.amount === undefined ? null : String(p.amount),
      currency: typeof p.currency === 'string' ? p.currency : null,
      status: 'REFUNDED',
    });
  }

  private async user(
    event: PartnerEventOf<UserEventName>,
    fields: {
      status?: string | null;
      metadata?: Record<string, string>;
      rejectionReasons?: unknown[];
      livenessResult?: string;
    },
  ): Promise<void> {
    await this.resources.applyUser({
      eventName: event.name,
      userId: event.payload.user_id,
      occurredAt: stateTime(event.payload),
      ...fields,
    });
  }

  private async deposit(
    event: PartnerEventOf<
      | typeof PartnerEvent.VirtualAccountDepositFundsReceived
      | typeof PartnerEvent.VirtualAccountMicrodepositFundsReceived
    >,
    kind: 'deposit' | 'microdeposit',
  ): Promise<void> {
    const p = event.payload;
    // Without a deposit_id the event itself is the key, so a replay still lands on one row; an
    // id too long for the column (or with U+0000) is keyed on its digest.
    const depositId = p.deposit_id ?? eventDerivedKey('event:', event.eventId);
    await this.resources.applyDeposit(toDepositObservation(depositId, kind, p));
  }
}

/**
 * When the resource was in the state an event reports: its updated_at (users answer it, evidence
 * N21), else occurred_at. Not created_at, which user events would echo as the user's creation
 * time: the same for every event of a user, it orders nothing.
 */
function stateTime(payload: object): Date | null {
  const p = payload as { updated_at?: unknown; occurred_at?: unknown };
  return parsePartnerTimestamp(p.updated_at ?? p.occurred_at);
}
