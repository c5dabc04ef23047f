/**
 * Payload types of the partner's events (spec 6.2-6.4, provider-facts "Webhooks"). Full payloads are
 * "not shown" by the contract: fields it names are typed, the others are optional, and every
 * payload keeps unknown extra fields (index signature) because new ones may appear.
 */
export interface PartnerPayloadBase {
  /** The de-duplication key (spec 6.1.4); there is no root-level event_id. */
  event_id: string;
  [field: string]: unknown;
}

/** Address as in spec 2.3. */
export interface PartnerWebhookAddress {
  street_name?: string;
  city?: string;
  state?: string;
  postal_code?: string;
  country?: string;
  [field: string]: unknown;
}

/** Recipient object carried by payout events (spec 6.4.4); fields as in spec 2.3, all optional here. */
export interface PartnerWebhookRecipient {
  recipient_id?: string;
  type?: string;
  company_name?: string;
  first_name?: string;
  last_name?: string;
  account_type?: string;
  address?: PartnerWebhookAddress;
  [field: string]: unknown;
}

export interface PartnerUserCreatedPayload extends PartnerPayloadBase {
  user_id: string;
  status?: string;
  /** spec 6.4.1: persisted metadata at emit time, {} when empty. */
  metadata: Record<string, string>;
}
/** spec 6.4.1: no metadata field on user.updated. */
export interface PartnerUserUpdatedPayload extends PartnerPayloadBase {
  user_id: string;
  status?: string;
}
export interface PartnerUserStatusChangedPayload extends PartnerPayloadBase {
  user_id: string;
  previous_status: string | null;
  new_status: string;
}
export interface PartnerUserVerificationAcceptedPayload extends PartnerPayloadBase {
  user_id: string;
  verification_status?: string;
}
/** spec 6.4.9: only for a declined provider result (or rare session expiry), never for outages. */
export interface PartnerUserVerificationFailedPayload extends PartnerPayloadBase {
  user_id: string;
  verification_status?: string;
  reasons?: string[];
}
/** spec 6.4.2: person_reference_id is null for an individual, the owner's reference for a business. */
export interface PartnerUserLivenessCompletedPayload extends PartnerPayloadBase {
  user_id: string;
  person_reference_id: string | null;
  result?: string;
}

export interface PartnerVirtualAccountCreatedPayload extends PartnerPayloadBase {
  virtual_account_id: string;
  user_id: string;
  /** rfi, approved, declined, deactivated (provider-facts, 2026-04-14). */
  status?: string;
  metadata: Record<string, string>;
}

/** spec 6.4.3: every source field depends on the rail and is optional. */
export interface PartnerDepositSource {
  payment_rail?: string;
  sender_name?: string;
  /** Wire */
  imad?: string;
  omad?: string;
  wire_message?: string;
  /** ACH */
  sender_account_number?: string;
  reference_number?: string;
  trace_number?: string;
  sec_code?: string;
  memo?: string;
  [field: string]: unknown;
}
/** virtual_account.deposit_funds_received and virtual_account.microdeposit_funds_received. */
export interface PartnerDepositPayload extends PartnerPayloadBase {
  user_id?: string;
  virtual_account_id: string;
  deposit_id?: string;
  amount?: string | number;
  currency?: string;
  status?: string;
  created_at?: string;
  source?: PartnerDepositSource;
}

/** payout.created, payout.pending, payout.processing: flat, data.status lowercase (spec 6.2, 6.4.5). */
export interface PartnerPayoutFlatPayload extends PartnerPayloadBase {
  payout_id: string;
  status: string;
}
/**
 * payout.completed, payout.failed, payout.returned (spec 6.4.4, 6.4.6): status completed | failed |
 * returned | cancelled (an ACT-rail cancellation arrives as payout.failed with status cancelled).
 * error_code is not in these payloads: it is on the payout resource.
 */
export interface PartnerPayoutTerminalPayload extends PartnerPayoutFlatPayload {
  /** Assigned by the sending bank (IMAD, trace number or UETR); null until the payment is sent. */
  reference_number: string | null;
  recipient: PartnerWebhookRecipient;
  /** Deprecated, wire only, absent by default. */
  uetr?: string;
  imad?: string;
  omad?: string;
}

/** Inner object of the V2 envelope of payout.status_changed (spec 6.2). */
export interface PartnerPayoutStatusChangedData {
  /** UPPERCASE: CREATED, PENDING, PROCESSING, COMPLETED, FAILED, CANCELLED, IN_REVIEW, KYT_PENDING. */
  status: string;
  previous_status: string | null;
  payout_id: string;
  amount?: string | number;
  destination_amount?: string | number;
  recipient?: PartnerWebhookRecipient;
  review_reason?: string | null;
  [field: string]: unknown;
}
/** payout.status_changed, V2 envelope: { event, data: { event_id, event_type, created_at, data } }. */
export interface PartnerPayoutStatusChangedPayload extends PartnerPayloadBase {
  event_type: 'payout.status_changed';
  created_at: string;
  data: PartnerPayoutStatusChangedData;
}

/** rfi.created (newer versions, evidence §9): no items; read the RFI again. */
export interface PartnerRfiCreatedPayload {
  event_id: string;
  rfi_id: string;
  user_id?: string;
  status?: string;
  [key: string]: unknown;
}

/** rfi.not_resolved (newer versions, evidence §9 [T1 REVISION-DOCS §1]): no items; read the RFI again. */
export interface PartnerRfiNotResolvedPayload {
  event_id: string;
  rfi_id: string;
  user_id?: string;
  to_status?: string;
  /** `expired` or `rejected` (evidence §7). */
  resolution_reason?: string | null;
  [key: string]: unknown;
}

/** virtual_account.deposit_funds_refunded (newer versions, evidence §9): no `status`; `return_details`. */
export interface PartnerDepositRefundedPayload {
  event_id: string;
  deposit_id?: string;
  virtual_account_id?: string;
  user_id?: string;
  amount?: string;
  currency?: string;
  return_details?: { code?: string; reason?: string; refunded_at?: string; [key: string]: unknown };
  [key: string]: unknown;
}

/** virtual_account.deposit_scheduled / deposit_in_review (newer versions, evidence §9): fields not recorded. */
export interface PartnerDepositNoticePayload {
  event_id: string;
  deposit_id?: string;
  virtual_account_id?: string;
  user_id?: string;
  [key: string]: unknown;
}
