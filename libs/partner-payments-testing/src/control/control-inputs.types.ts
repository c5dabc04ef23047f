/**
 * The inputs and answers of the sandbox's control operations (SandboxControl, control.types.ts):
 * seeding, payout steps, deposits, clients, emitted events and webhook secret rotation.
 */
import type { Metadata, PaymentRail } from '../server/state.types';
import type { PayoutStatus } from '../server/payout-state.types';
import type { AnswerType, RfiItemRecord, RfiStatus } from '../server/rfi-state.types';

export interface SeedRfiItemInput {
  answer_type: AnswerType;
  prompt?: string;
  answer_spec?: Record<string, unknown>;
  target_key?: string | null;
  subject?: { person_id: string; display_name: string | null } | null;
}

export interface SeedRfiInput {
  userId: string;
  /** Items to ask; default one item of every answer_type with a typical answer_spec. */
  items?: SeedRfiItemInput[];
  status?: RfiStatus;
  /** evidence §7: the deadline (default 14 days from now); never extended. */
  dueAt?: string;
  /** evidence §7: what the RFI holds, e.g. `{ type: 'payout', transfer_uuid }`; default null. */
  blocking?: Record<string, string> | null;
}

export interface SeededRfi {
  rfiId: string;
  userId: string;
  itemIds: string[];
  /** First item id of each answer_type. */
  itemIdsByType: Partial<Record<AnswerType, string>>;
  items: RfiItemRecord[];
}

/** A payout lifecycle step (spec 3.4, 6.4). RETURNED and ACT_CANCELLED resolve the resource to FAILED. */
export type PayoutStepName = PayoutStatus | 'RETURNED' | 'ACT_CANCELLED';

export interface PayoutStep {
  status: PayoutStepName;
  /** Which events this step emits; default by rail and status (see docs/testing/webhooks.md). 'none' = resolve silently (spec 6.4.8). */
  events?: 'default' | 'granular' | 'v2' | 'both' | 'none';
  errorCode?: string;
  reviewReason?: string;
  /** Extra fields merged into this step's granular event, e.g. { uetr, imad, omad } (spec 6.4.4: absent by default). */
  eventExtras?: Record<string, unknown>;
}

/** Input of `seedPayouts` (a control convenience for load tests; the partner has nothing like it). */
export interface SeedPayoutsInput {
  virtualAccountId: string;
  /** A recipient of the virtual account's user. */
  recipientId: string;
  /** How many payouts, 1 to 200,000. */
  count: number;
  /** Each payout's amount; default "1.00". The balance must cover them all. */
  amount?: string;
  /** Steps every payout walks through after creation, on the resource only (no webhook). */
  steps?: (PayoutStepName | PayoutStep)[];
}

export interface PayoutView {
  payout_id: string;
  status: PayoutStatus;
  reference_number: string | null;
  error_code: string | null;
  payment_method: PaymentRail;
}

export interface DepositInput {
  amount?: string;
  currency?: string;
  rail?: 'WIRE' | 'ACH' | 'RTP';
  microdeposit?: boolean;
  status?: 'PENDING' | 'COMPLETED' | 'FAILED' | 'REFUNDED' | 'KYT_PENDING' | 'KYT_REJECTED';
  senderName?: string;
  source?: Record<string, unknown>;
}

/** Options of `refundDeposit` (a refund after settlement). */
export interface DepositRefundOptions {
  /**
   * Also send `virtual_account.deposit_funds_refunded` (evidence §9 [T1 REVISION-DOCS §1]: a newer
   * event, not in the contract's 2026-04-14 list). Default false: the resource changes silently.
   */
  event?: boolean;
  /** `return_details.code` of the event; default 'R01' (an ACH return code). */
  code?: string;
  /** `return_details.reason` of the event; default 'Insufficient funds'. */
  reason?: string;
}

export interface DepositRefund {
  status: 'REFUNDED';
  /** When it was refunded: the resource's updated_at and the event's `return_details.refunded_at`. */
  refundedAt: string;
  /** data.event_id of the refund event; null when none was sent (the default). */
  eventId: string | null;
}

export interface VirtualAccountPatch {
  /** Either vocabulary (evidence §5): 'pending' | 'activating' | 'active' | 'failed' | 'deactivated' | 'frozen', or 2026-04-14's 'approved' | 'declined' | 'rfi'. */
  status?: string;
  /** e.g. 'PENDING-ACT-ACCOUNT' (the placeholder before funds are usable) or null. */
  account_number?: string | null;
}

export interface CreateClientInput {
  apiKey?: string;
  clientId?: string;
  password?: string;
  clientUuid?: string;
  webhookUrl?: string;
  webhookSecret?: string;
  /** Banks usable for virtual accounts (spec 2.4); default `[]`, as at the partner. */
  authorizedBanks?: string[];
  defaultUserMetadata?: Metadata;
  /** Version the account starts pinned to (a known version); default none. */
  pinnedVersion?: string;
}

export interface SandboxClientInfo {
  apiKey: string;
  clientId: string;
  password: string;
  clientUuid: string;
  webhookSecret: string;
}

export interface EmitOptions {
  clientUuid?: string;
  /**
   * true: sign this delivery with the previous secret; false: with the current one. Default: the
   * previous one within the window after a rotation (evidence §9), else the current one.
   */
  signWithPreviousSecret?: boolean;
}

/** Options of `rotateWebhookSecret`. */
export interface RotateWebhookSecretOptions {
  /**
   * How long after the rotation deliveries stay signed with the previous secret; default the
   * sandbox's `webhookSecretOverlapMs` (60000). evidence §9 [T1 REVISION-DOCS §2.4]: the partner
   * keeps signing with the old secret for about a minute, so an app must accept both meanwhile.
   * 0: the new secret signs at once, a convenience the partner lacks (opt-in).
   */
  overlapMs?: number;
}

/** The answer of `rotateWebhookSecret`. */
export interface WebhookSecretRotation {
  /** The new secret: the current one from now on (`sandbox.webhookSecret` follows it). */
  secret: string;
  /** The secret it replaced. */
  previousSecret: string;
  /**
   * ISO time until which deliveries are signed with `previousSecret` (unless a test asks otherwise);
   * from then on with `secret`. The rotation time itself when `overlapMs` is 0.
   */
  previousSecretSignsUntil: string;
}
