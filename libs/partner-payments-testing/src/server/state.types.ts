/** In-memory records of the simulated partner. Field names follow the wire shapes of the spec. */
export type Metadata = Record<string, string>;

export interface Address {
  street_name?: string;
  city?: string;
  state?: string;
  postal_code?: string;
  country?: string;
}

export interface ClientWallet {
  client_uuid: string;
  object: string;
  address: string;
  explorer_url: string;
  name: string;
  network__id: string;
}

export interface ClientVault {
  vault_id: string;
  object: string;
  name: string;
  type: string;
}

/** One partner account (an API client): credentials, configuration and webhook target (spec 2.4, 5, 6.1). */
export interface ClientAccount {
  id: number;
  clientUuid: string;
  apiKey: string;
  clientId: string;
  password: string;
  companyName: string;
  pinnedVersion: string | undefined;
  authorizedBanks: string[];
  defaultUserMetadata: Metadata;
  webhookUrl: string | undefined;
  webhookSecret: string;
  previousWebhookSecret: string | undefined;
  wallet: ClientWallet | null;
  vault: ClientVault | null;
  createdAt: string;
  updatedAt: string;
}

/** evidence §3 [D known-limitations][T3r DRIFT-23]: the partner's sandbox stops in REVIEW. */
export type UserStatus = 'CREATED' | 'VERIFYING' | 'REVIEW' | 'VERIFIED' | 'REJECTED';
export type VerificationOutcome = 'approved' | 'declined' | 'provider_outage' | 'session_expired';

export interface AssociatedPerson {
  person_id: string;
  first_name?: string;
  last_name?: string;
  email?: string;
  is_beneficial_owner: boolean;
  [field: string]: unknown;
}

/** A stored document of identifying_information[]: the bytes are not kept, only what a read shows. */
export interface StoredUserDocument {
  type: string | null;
  content_type: string;
  uploaded_at: string;
  ref: string;
}

export interface LivenessLinkRecord {
  person_id: string | null;
  person_reference_id: string | null;
  redirect: string | null;
  liveness_url: string;
  expires_at: string;
}

/** POST /v1/users/{id}/verifications (evidence §3): recorded, changes nothing on the user. */
export interface UserVerificationRecord {
  id: string;
  type: 'embedded-link' | 'api';
  redirect_uri: string | null;
  verification_link: string | null;
  status: string;
  created_at: string;
}

export interface UserRecord {
  /** The partner answers it as `id` (evidence §10); events carry it as `user_id`. */
  user_id: string;
  clientUuid: string;
  type: 'individual' | 'business';
  status: UserStatus;
  /** The request's flat fields as sent (address_*, birth_date, ...), minus the ones kept apart below. */
  fields: Record<string, unknown>;
  metadata: Metadata;
  associated_persons: AssociatedPerson[];
  livenessReferences: { person_id: string | null; person_reference_id: string | null }[];
  /** Links handed out (evidence §3 [T1 KiraApiClient]): the same one again until `redirect` changes or it expires. */
  livenessLinks: LivenessLinkRecord[];
  /** Set once one product had nothing missing (evidence §3, DRIFT-3/19); never reset. */
  verificationTriggered: boolean;
  /** spec 3.3: the provider call is failing; the internal re-run never rejects while this holds. */
  providerFailing: boolean;
  /**
   * Bumped when the control decides an outcome: automatic steps scheduled before it (verificationDelayMs)
   * no longer apply, so a provider outage set while they wait is not overridden by their REVIEW.
   */
  verificationRun: number;
  verifications: UserVerificationRecord[];
  /** DRIFT-16: the same key and the same body replay the answer; another body makes a new one. */
  verificationReplays: Map<string, UserVerificationRecord>;
  created_at: string;
  updated_at: string;
}

/** A saved recipient (evidence §4). user_id is kept for ownership checks; the partner never answers it. */
export interface RecipientRecord {
  recipient_id: string;
  clientUuid: string;
  user_id: string;
  type: 'business' | 'individual';
  company_name?: string;
  first_name?: string;
  last_name?: string;
  email?: string;
  phone?: string;
  /** A structured object on the bank rails; a plain string is accepted on the others. */
  address?: Address | string;
  account_type: string;
  account_details: Record<string, unknown>;
  metadata: Metadata;
  /** PostgreSQL text form, as the partner sends it (evidence §4 [T3r DRIFT-31]). */
  created_ts: string;
  updated_ts: string;
}

/** evidence §5: 2026-06-01 / default vocabulary; `frozen` blocks payouts. */
export type VirtualAccountStatus = 'pending' | 'activating' | 'active' | 'failed' | 'deactivated' | 'frozen';

export interface VirtualAccountRecord {
  virtual_account_id: string;
  clientUuid: string;
  user_id: string;
  type: string;
  bank: string;
  mode: string | null;
  destination: Record<string, unknown> | null;
  /**
   * Stored in the 2026-06-01 vocabulary and shown in the requested version's (evidence §5
   * [D state-machines]): see virtual-account.status.ts.
   */
  status: VirtualAccountStatus;
  /** null until provisioned (`PENDING-ACT-ACCOUNT` on the ACT bank): evidence §5 [D known-limitations]. */
  account_number: string | null;
  routing_number: string | null;
  metadata: Metadata;
  created_at: string;
  updated_at: string;
}

export type DepositStatus = 'PENDING' | 'COMPLETED' | 'FAILED' | 'REFUNDED' | 'KYT_PENDING' | 'KYT_REJECTED';
export type PaymentRail = 'WIRE' | 'ACH' | 'RTP' | 'ACT' | 'SWIFT' | 'SPEI' | 'CRYPTO';

export interface DepositRecord {
  deposit_id: string;
  virtual_account_id: string;
  user_id: string;
  amount: string;
  currency: string;
  status: DepositStatus;
  microdeposit: boolean;
  source: Record<string, unknown>;
  created_at: string;
  updated_at: string;
}

export interface LiquidationAddressRecord {
  id: string;
  virtual_account_id: string;
  status: string;
  network: string;
  token: string;
  address: string;
  recipient: Record<string, unknown>;
  wallet: Record<string, unknown>;
  markup: string;
  created_at: string;
  updated_at: string;
}

/** spec 3.4 / provider-facts: the payout resource status is UPPERCASE. */
export type PayoutStatus =
  'CREATED' | 'PENDING' | 'PROCESSING' | 'COMPLETED' | 'FAILED' | 'CANCELLED' | 'IN_REVIEW' | 'KYT_PENDING';

/**
 * A quote a preview made with `create_quote` (only with the opt-in fee profile: the partner's
 * sandbox makes none, evidence §6 [T3r DRIFT-45]). What an execute naming it must match.
 */
export interface QuoteRecord {
  quote_id: string;
  clientUuid: string;
  virtual_account_id: string;
  /** The recipient the preview named, or null when it named an account type. */
  recipient_id: string | null;
  account_type: string;
  /** The gross amount priced (what the execute's `amount` carries, fees included), in cents. */
  grossCents: bigint;
  /** The fee and what reaches the recipient, as the preview answered them: the payout carries them. */
  feeCents: bigint;
  netCents: bigint;
  expiresAt: number;
  /** The payout that used it: a quote prices one payout. */
  usedBy: string | null;
}

export interface PayoutRecord {
  payout_id: string;
  clientUuid: string;
  user_id: string;
  virtual_account_id: string;
  recipient_id: string;
  status: PayoutStatus;
  from_amount: string;
  from_currency: string;
  to_amount: string;
  to_currency: string;
  fee: string;
  payment_method: PaymentRail;
  reference_number: string | null;
  error_code: string | null;
  quote_id: string | null;
  memo: string | null;
  /** evidence §6 [D get-a-payout]: `{event_id, status, message, created_at}` per transition. */
  events: { event_id: string; status: PayoutStatus; message: string; created_at: string }[];
  created_at: string;
  updated_at: string;
}

export type AnswerType =
  | 'text_long'
  | 'text_short'
  | 'number'
  | 'date'
  | 'boolean'
  | 'choice'
  | 'identifier'
  | 'document'
  | 'ubo_link';

export interface RfiDocument {
  document_id: string;
  file_name: string;
  mime_type: string;
  size_bytes: number;
  checksum: string;
  uploaded_at: string;
}

export interface RfiItemRecord {
  item_id: string;
  ordinal: number;
  prompt: string;
  answer_type: AnswerType;
  answer_spec: Record<string, unknown>;
  target_key: string | null;
  subject: { person_id: string; display_name: string | null } | null;
  status: 'pending' | 'answered';
  answer_value: string | number | boolean | null;
  documents: RfiDocument[];
  review_note: string | null;
  updated_at: string | null;
  returned_at: string | null;
}

export type RfiStatus = 'pending' | 'answered' | 'resolved' | 'not_resolved' | 'withdrawn';

export interface RfiRecord {
  rfi_id: string;
  clientUuid: string;
  user_id: string;
  status: RfiStatus;
  /** evidence §7 [T1 AnswerRfiService]: never extended; on expiry the RFI closes not_resolved / expired. */
  due_at: string;
  /** evidence §7: what the RFI holds, `{type, transfer_uuid | virtual_account_deposit_uuid}`, or null. */
  blocking: Record<string, string> | null;
  /** evidence §7: `expired`, `rejected` or `withdrawn` once closed without resolution; null before. */
  resolution_reason: string | null;
  items: RfiItemRecord[];
  /** Stored bytes by document_id (never exposed as a path, spec 2.2). */
  files: Map<string, Buffer>;
  created_at: string;
  updated_at: string;
}
