/**
 * Every event name the partner emits on 2026-04-14 (spec 6.3), plus the newer ones its later docs
 * name (evidence §9, "newer versions": not emitted on 2026-04-14 by default, but a receiver should
 * handle them), for `@OnEvent(PartnerEvent.X)`. Handlers receive the typed payloads of
 * `PartnerEventPayloads`. Any other name is still acknowledged 2xx and surfaced as
 * `PartnerDerivedEvent.Unknown` (spec 6.1.5).
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
  // Newer versions (evidence §9 [T1 REVISION-DOCS §1]): the full rfi.* list is not known.
  RfiCreated: 'rfi.created',
  RfiNotResolved: 'rfi.not_resolved',
  VirtualAccountDepositFundsRefunded: 'virtual_account.deposit_funds_refunded',
  VirtualAccountDepositScheduled: 'virtual_account.deposit_scheduled',
  VirtualAccountDepositInReview: 'virtual_account.deposit_in_review',
} as const;

/** The names above that are not in the contract's 2026-04-14 list (spec 6.3): the catalog marks them "newer versions". */
export const PARTNER_NEWER_EVENTS: readonly string[] = [
  'rfi.created',
  'rfi.not_resolved',
  'virtual_account.deposit_funds_refunded',
  'virtual_account.deposit_scheduled',
  'virtual_account.deposit_in_review',
];
export type PartnerEventName = (typeof PartnerEvent)[keyof typeof PartnerEvent];

/** The contract's own list (spec 6.3, 2026-04-14): PartnerEvent without the newer versions. */
export const PARTNER_CONTRACT_EVENTS: readonly string[] = Object.values(PartnerEvent).filter(
  (name) => !PARTNER_NEWER_EVENTS.includes(name),
);

/**
 * Events the module itself emits, derived from each delivery the partner sent. Prefixed so they can
 * never collide with a future partner event name.
 */
export const PartnerDerivedEvent = {
  /**
   * The payout status of every payout.* and payout.status_changed delivery, in one shape (spec
   * 6.4.7). One transition usually comes once per family: handlers must be idempotent.
   */
  PayoutStatus: 'partner-payments.payout.status',
  /** An event type this version does not know (spec 6.1.5): acknowledged, recorded, emitted here. */
  Unknown: 'partner-payments.unknown',
} as const;
export type PartnerDerivedEventName = (typeof PartnerDerivedEvent)[keyof typeof PartnerDerivedEvent];
