import type { PartnerEnvelopeKind } from '../inbox/inbox.store';
import { PartnerDerivedEvent, PartnerEvent, type PartnerEventName } from './partner-event.constants';

import type {
  PartnerUserCreatedPayload,
  PartnerUserUpdatedPayload,
  PartnerUserStatusChangedPayload,
  PartnerUserVerificationAcceptedPayload,
  PartnerUserVerificationFailedPayload,
  PartnerUserLivenessCompletedPayload,
  PartnerVirtualAccountCreatedPayload,
  PartnerDepositPayload,
  PartnerPayoutFlatPayload,
  PartnerPayoutTerminalPayload,
  PartnerPayoutStatusChangedPayload,
  PartnerRfiCreatedPayload,
  PartnerRfiNotResolvedPayload,
  PartnerDepositRefundedPayload,
  PartnerDepositNoticePayload,
} from './partner-event-payloads.types';

/** The partner's `data` object per event name. */
export interface PartnerEventPayloads {
  [PartnerEvent.UserCreated]: PartnerUserCreatedPayload;
  [PartnerEvent.UserUpdated]: PartnerUserUpdatedPayload;
  [PartnerEvent.UserStatusChanged]: PartnerUserStatusChangedPayload;
  [PartnerEvent.UserVerificationAccepted]: PartnerUserVerificationAcceptedPayload;
  [PartnerEvent.UserVerificationFailed]: PartnerUserVerificationFailedPayload;
  [PartnerEvent.UserLivenessCompleted]: PartnerUserLivenessCompletedPayload;
  [PartnerEvent.VirtualAccountCreated]: PartnerVirtualAccountCreatedPayload;
  [PartnerEvent.VirtualAccountDepositFundsReceived]: PartnerDepositPayload;
  [PartnerEvent.VirtualAccountMicrodepositFundsReceived]: PartnerDepositPayload;
  [PartnerEvent.PayoutCreated]: PartnerPayoutFlatPayload;
  [PartnerEvent.PayoutPending]: PartnerPayoutFlatPayload;
  [PartnerEvent.PayoutProcessing]: PartnerPayoutFlatPayload;
  [PartnerEvent.PayoutStatusChanged]: PartnerPayoutStatusChangedPayload;
  [PartnerEvent.PayoutCompleted]: PartnerPayoutTerminalPayload;
  [PartnerEvent.PayoutFailed]: PartnerPayoutTerminalPayload;
  [PartnerEvent.PayoutReturned]: PartnerPayoutTerminalPayload;
  [PartnerEvent.RfiCreated]: PartnerRfiCreatedPayload;
  [PartnerEvent.RfiNotResolved]: PartnerRfiNotResolvedPayload;
  [PartnerEvent.VirtualAccountDepositFundsRefunded]: PartnerDepositRefundedPayload;
  [PartnerEvent.VirtualAccountDepositScheduled]: PartnerDepositNoticePayload;
  [PartnerEvent.VirtualAccountDepositInReview]: PartnerDepositNoticePayload;
}

/**
 * The normalised view of one delivery: what `@OnEvent(PartnerEvent.X)` handlers receive.
 * `payload` is the partner's `data` object untouched (typed, unknown fields kept).
 */
export interface PartnerWebhookEvent<N extends string = string, P = Record<string, unknown>> {
  name: N;
  /** data.event_id (spec 6.1.4); `sha256:<hex of the body>` when a malformed delivery lacks it. */
  eventId: string;
  envelope: PartnerEnvelopeKind;
  /** true when `name` is one of PartnerEvent (spec 6.3). */
  known: boolean;
  /** Canonical UPPERCASE status (spec 6.4.5: compare case-insensitively), null when none. */
  status: string | null;
  /** The status exactly as received. */
  rawStatus: string | null;
  /** Canonical UPPERCASE previous status where the event carries one. */
  previousStatus: string | null;
  /** V2 data.created_at, else data.created_at / occurred_at / updated_at where present. */
  occurredAt: string | null;
  payload: P;
  /** The whole parsed body, for fields outside `data`. */
  body: Record<string, unknown>;
}

/** The event a handler of partner event `N` receives. */
export type PartnerEventOf<N extends PartnerEventName> = PartnerWebhookEvent<N, PartnerEventPayloads[N]>;

/** Any known partner event, discriminated by `name`. */
export type AnyPartnerEvent = { [N in PartnerEventName]: PartnerEventOf<N> }[PartnerEventName];

/** Emitted on PartnerDerivedEvent.Unknown for event types this version does not know (spec 6.1.5). */
export type PartnerUnknownEvent = PartnerWebhookEvent<string, Record<string, unknown>>;

/**
 * The unified payout status (PartnerDerivedEvent.PayoutStatus) of one payout.* or
 * payout.status_changed delivery (spec 6.4.7). `status` is in the payout resource's UPPERCASE
 * vocabulary (spec 3.4). Emitted for every delivery, so one transition that both families report
 * arrives twice (and deliveries in any order): apply it with a forward-only rule such as
 * decidePayoutStatusChange.
 */
export interface PartnerPayoutStatusEvent {
  payoutId: string;
  status: string;
  previousStatus: string | null;
  /** The status as the delivery gave it (e.g. 'returned', 'cancelled', 'KYT_PENDING'). */
  rawStatus: string;
  /** The partner event it came from. */
  eventName: string;
  eventId: string;
  occurredAt: string | null;
  referenceNumber?: string | null;
  errorCode?: string | null;
  reviewReason?: string | null;
}

/** What each emitted event name carries: `@OnPartnerEvent(name)` handlers get `PartnerEventMap[name]`. */
export type PartnerEventMap = { [N in PartnerEventName]: PartnerEventOf<N> } & {
  [PartnerDerivedEvent.PayoutStatus]: PartnerPayoutStatusEvent;
  [PartnerDerivedEvent.Unknown]: PartnerUnknownEvent;
};
