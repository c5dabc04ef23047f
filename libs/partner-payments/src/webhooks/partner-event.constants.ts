/**
 * Every event name the partner emits on 2026-04-14 (spec 6.3), for `@OnEvent(PartnerEvent.X)`.
 * Handlers receive the typed payloads of `PartnerEventPayloads`.
 */
export const PartnerEvent = {
  UserCreated: 'user.created',
  UserUpdated: 'user.updated',
  UserStatusChanged: 'user.status_changed',
  UserVerificationAccepted: 'user.verification.accepted',
  UserVerificationFailed: 'user.verification.failed',
  UserLivenessCompleted: 'user.liveness_completed',
  VirtualAccountCreated: 'virtual_account.created',
  VirtualAccountDepositFundsReceived: 'virtual_account.deposit_funds_received',
  VirtualAccountMicrodepositFundsReceived: 'virtual_account.microdeposit_funds_received',
  PayoutCreated: 'payout.created',
  PayoutPending: 'payout.pending',
  PayoutProcessing: 'payout.processing',
  PayoutStatusChanged: 'payout.status_changed',
  PayoutCompleted: 'payout.completed',
  PayoutFailed: 'payout.failed',
  PayoutReturned: 'payout.returned',
} as const;
export type PartnerEventName = (typeof PartnerEvent)[keyof typeof PartnerEvent];

/**
 * Events the module itself emits, derived from what the partner sent (or from reconciliation).
 * Prefixed so they can never collide with a future partner event name.
 */
export const PartnerDerivedEvent = {
  /** One stream of payout statuses from both families (payout.* and payout.status_changed). */
  PayoutStatus: 'partner-payments.payout.status',
  /** An event type this version does not know (spec 6.1.5): acknowledged, recorded, emitted here. */
  Unknown: 'partner-payments.unknown',
} as const;
export type PartnerDerivedEventName = (typeof PartnerDerivedEvent)[keyof typeof PartnerDerivedEvent];
