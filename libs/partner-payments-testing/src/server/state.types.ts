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
