import type {
  DepositStatus,
  ClientVault,
  ClientWallet,
  UserStatus,
  VerificationOutcome,
} from '../server/state.types';
import type { RfiItemRecord, RfiStatus } from '../server/rfi-state.types';
import type {
  SeedRfiInput,
  SeededRfi,
  PayoutStepName,
  PayoutStep,
  SeedPayoutsInput,
  PayoutView,
  DepositInput,
  DepositRefundOptions,
  DepositRefund,
  VirtualAccountPatch,
  CreateClientInput,
  SandboxClientInfo,
  EmitOptions,
  RotateWebhookSecretOptions,
  WebhookSecretRotation,
} from './control-inputs.types';

export type ResourceKind =
  | 'users'
  | 'recipients'
  | 'virtual_accounts'
  | 'payouts'
  | 'deposits'
  | 'documents'
  | 'rfis'
  | 'liveness_links'
  | 'liquidation_addresses'
  | 'verifications';

export interface SandboxCounters {
  created: Record<ResourceKind, number>;
  /** POST /auth calls (successful or not). */
  authCalls: number;
  authFailures: number;
  /** Requests by route template, e.g. `POST /v1/virtual-accounts/:id/payout`. */
  requests: Record<string, number>;
  /** Requests answered from the idempotency store. */
  idempotentReplays: number;
  /** Replays whose request body differed from the original's (a key reused for another call). */
  idempotencyKeyReuses: number;
  webhooksSent: number;
}

export interface RequestLogEntry {
  seq: number;
  at: string;
  method: string;
  /** Path as requested, including a `/sandbox` prefix when used. */
  path: string;
  /** Route template with the prefix removed and ids replaced, e.g. `GET /v1/payouts/:id`. */
  route: string;
  /** Headers with x-api-key and authorization redacted. */
  headers: Record<string, string>;
  bodySha256: string | null;
  status: number | null;
  fault: string | null;
}

export interface DeliveryRecord {
  seq: number;
  clientUuid: string;
  event: string;
  eventId: string | null;
  url: string | null;
  /** The exact bytes sent. */
  body: string;
  signature: string;
  /**
   * Signed with the secret a rotation replaced: by default every delivery emitted in the window
   * after a rotation (evidence §9), or as a test asked (`signWithPreviousSecret`,
   * `signNextWithPreviousSecret`). False when there was no previous secret.
   */
  signedWithPreviousSecret: boolean;
  duplicate: boolean;
  /** queued/held until sent; delivered = the receiver answered (any status); failed = no answer; no_url = no webhook URL set. */
  /** 'dropped': lost on purpose (dropNextWebhooks), as a delivery to an app that was down is lost (spec 6.1.4: never retried). */
  outcome: 'queued' | 'held' | 'delivered' | 'failed' | 'no_url' | 'dropped';
  /** HTTP status the receiver answered; null when nothing answered. */
  status: number | null;
  error: string | null;
  sentAt: string | null;
}

/**
 * `accepted_then_stall` is a sandbox convenience (opt-in, the partner has no such switch): the
 * request is carried out, then its answer is held `latencyMs` (default 30 s), so a test can kill
 * or time out the caller while the partner holds an answer it never receives.
 */
export type FaultKind =
  'latency' | 'server_error' | 'rate_limit' | 'reset' | 'accepted_then_reset' | 'accepted_then_stall';

export interface FaultSpec {
  kind: FaultKind;
  /** Route template (`POST /v1/users`, `GET /v1/payouts/:id`, `* /v1/users*`); omitted = every partner route. */
  route?: string;
  /** How many matching requests it hits; default 1, latency default unlimited. */
  times?: number;
  /** Delay of a latency fault (default 100), or how long accepted_then_stall holds the answer (default 30000). */
  latencyMs?: number;
  /** Status of a server_error; default 503. */
  status?: number;
  /** Retry-After seconds of a rate_limit; default 1. */
  retryAfterSeconds?: number;
}

export interface ActiveFault extends Required<Omit<FaultSpec, 'route'>> {
  id: string;
  route: string | null;
  hits: number;
}

/**
 * Scenario controls. The same operations exist in process (`sandbox.control`) and over HTTP
 * (`PartnerSandboxControlClient`, routes under `/__control`). Operations act on the primary account
 * unless a `clientUuid` is given.
 */
export interface SandboxControl {
  createClient(input?: CreateClientInput): Promise<SandboxClientInfo>;
  setWebhookUrl(url: string | null, clientUuid?: string): Promise<void>;
  /** The account's webhook URL, null when none is set (`partner-sandbox listen` puts it back on exit). */
  webhookUrl(clientUuid?: string): Promise<string | null>;
  /**
   * Replaces the account's webhook secret (`newSecret`, default a random `whsec_...`). As at the
   * partner (evidence §9 [T1 REVISION-DOCS §2.4]), deliveries keep being signed with the previous
   * secret for `options.overlapMs` (default the sandbox's `webhookSecretOverlapMs`, 60000), then with
   * the new one; the answer says until when. `{ overlapMs: 0 }`: the new secret signs at once, a
   * convenience the partner lacks. `reset()` ends the window (the new secret stays).
   */
  rotateWebhookSecret(
    newSecret?: string,
    clientUuid?: string,
    options?: RotateWebhookSecretOptions,
  ): Promise<WebhookSecretRotation>;
  setAuthorizedBanks(banks: string[], clientUuid?: string): Promise<void>;
  provisionClientWallet(wallet?: Partial<ClientWallet>, clientUuid?: string): Promise<ClientWallet>;
  provisionClientVault(vault?: Partial<ClientVault>, clientUuid?: string): Promise<ClientVault>;
  /**
   * Decides in advance the outcome of the next users whose verification starts (applied where the
   * partner's staff would: after VERIFYING), over the `userVerification` mode; null clears.
   */
  setNextVerificationOutcome(outcome: VerificationOutcome | null): Promise<void>;
  /**
   * The partner's staff decide one user now (evidence §3: the partner's sandbox never verifies on
   * its own). 'approved' walks CREATED/VERIFYING/REVIEW forward to VERIFIED (+ accepted);
   * 'declined' / 'session_expired' → REJECTED (+ failed with `reasons`); 'provider_outage' →
   * VERIFYING, no event (spec 3.3). Throws for a REJECTED user, for approving a user whose data never
   * triggered verification, and for a rejection while the provider call is failing (spec 3.3: the
   * internal re-run never rejects).
   */
  setUserVerificationOutcome(
    userId: string,
    outcome: VerificationOutcome,
    options?: { reasons?: string[] },
  ): Promise<UserStatus>;
  completeLiveness(
    userId: string,
    input?: { personReferenceId?: string | null; result?: string },
  ): Promise<void>;
  simulateDeposit(virtualAccountId: string, input?: DepositInput): Promise<{ depositId: string }>;
  /**
   * The partner's staff finish opening a virtual account (evidence §5: activating -> active, with
   * its account and routing numbers; or 'failed'). Until then account_number is null (the ACT
   * bank: `PENDING-ACT-ACCOUNT`), the balance answers 400 and payouts are refused.
   */
  provisionVirtualAccount(
    virtualAccountId: string,
    outcome?: 'active' | 'failed',
  ): Promise<{ status: string; accountNumberLast4: string | null }>;
  /** Provisions the account when still activating, then credits it with a completed deposit (default 10000.00). */
  fundVirtualAccount(virtualAccountId: string, amount?: string): Promise<{ depositId: string }>;
  addLiquidationAddress(virtualAccountId: string, input?: Record<string, unknown>): Promise<{ id: string }>;
  /** Virtual account status / account_number on the resource only (no event). */
  updateVirtualAccount(virtualAccountId: string, patch: VirtualAccountPatch): Promise<void>;
  /** Deposit status on the resource only (no event, spec 6.4.8). */
  setDepositStatus(depositId: string, status: DepositStatus): Promise<void>;
  /**
   * The partner's bank refunds a COMPLETED deposit after settlement (an ACH return): the resource
   * becomes REFUNDED (final, evidence §5) and the balance drops by its amount. No webhook by default
   * (spec 6.3 lists no refund event; spec 6.4.8: the final state is read from the deposit); with
   * `{ event: true }` `virtual_account.deposit_funds_refunded` is sent (evidence §9: no `status`,
   * `return_details{code, reason, refunded_at}`). Throws for a deposit that is not COMPLETED.
   */
  refundDeposit(depositId: string, options?: DepositRefundOptions): Promise<DepositRefund>;
  seedRfi(input: SeedRfiInput): Promise<SeededRfi>;
  returnRfiItem(rfiId: string, itemId: string, reviewNote: string): Promise<RfiItemRecord>;
  /** Moves an RFI; not_resolved takes a resolution_reason (default 'expired'), withdrawn records 'withdrawn' (evidence §7). */
  setRfiStatus(rfiId: string, status: RfiStatus, resolutionReason?: 'expired' | 'rejected'): Promise<void>;
  advancePayout(
    payoutId: string,
    steps: PayoutStepName | PayoutStep | (PayoutStepName | PayoutStep)[],
  ): Promise<PayoutView>;
  /**
   * Control only, for load tests: creates `count` payouts at once, as the API would, and walks each
   * through `steps` on the resource only. No webhook is sent for any of them (not even
   * payout.created), so only reading the partner learns about them. Answers their ids.
   */
  seedPayouts(input: SeedPayoutsInput): Promise<{ payoutIds: string[] }>;
  emitEvent(
    event: string,
    data?: Record<string, unknown>,
    options?: EmitOptions,
  ): Promise<{ eventId: string }>;
  sendUnknownEvent(event?: string, clientUuid?: string): Promise<{ eventId: string }>;
  /** Sends again the exact bytes of an earlier delivery (by data.event_id; default the last one). */
  sendDuplicate(eventId?: string): Promise<void>;
  /** Holds the next `count` events of an account and delivers them in reverse order. */
  reorderNext(count: number, clientUuid?: string): Promise<void>;
  /**
   * Loses the next `count` deliveries (of `event`, when given) without sending them: the partner
   * never re-sends (spec 6.1.4), so this is what an outage of the receiver looks like. Recorded
   * with outcome 'dropped'.
   */
  dropNextWebhooks(count?: number, event?: string, clientUuid?: string): Promise<void>;
  /**
   * Signs the next `count` deliveries with the previous secret (after a rotation; rejects before
   * one), inside the window after the rotation or past it.
   */
  signNextWithPreviousSecret(count?: number, clientUuid?: string): Promise<void>;
  addFault(fault: FaultSpec): Promise<{ id: string }>;
  clearFaults(): Promise<void>;
  faults(): Promise<ActiveFault[]>;
  expireTokensNow(): Promise<void>;
  counters(): Promise<SandboxCounters>;
  requestLog(): Promise<RequestLogEntry[]>;
  deliveries(): Promise<DeliveryRecord[]>;
  /** Resolves when at least `count` deliveries (of `event`, if given) are done; rejects after timeoutMs (default 5000). */
  waitForDeliveries(input?: {
    count?: number;
    event?: string;
    timeoutMs?: number;
  }): Promise<DeliveryRecord[]>;
  /** Resolves when every queued delivery is done. */
  flushWebhooks(): Promise<void>;
  /** Forgets every resource, token, log, counter, fault and delivery; accounts and their credentials stay. */
  reset(): Promise<void>;
}
