import type { SandboxControl } from '../control/control.types';
import type { Metadata } from './state.types';

/** Where the sandbox writes its one-line notes. Secrets are never passed to it. */
export interface SandboxLogger {
  log(message: string): void;
  warn(message: string): void;
}

export interface SandboxCredentialsInput {
  apiKey?: string;
  clientId?: string;
  password?: string;
}

export interface SandboxCredentials {
  apiKey: string;
  clientId: string;
  password: string;
  clientUuid: string;
}

/** Options of `startPartnerSandbox`; every field is optional. */
export interface PartnerSandboxOptions {
  /** TCP port; default 0 (a random free port). */
  port?: number;
  /** Interface to bind; default 127.0.0.1. */
  host?: string;
  /**
   * Where partner routes are served: 'sandbox' (default: only under `/sandbox`, as at the partner;
   * the root answers as the partner's production stage answers sandbox credentials, evidence §11
   * N1: POST /auth 403, other routes 401, so a client that drops the prefix fails), 'root' (only
   * `/`, the production shape; `/sandbox` then refuses the same way) or 'both' (`/` and `/sandbox`
   * alike: an opt-in convenience, not the partner).
   */
  bases?: 'both' | 'sandbox' | 'root';
  /** Account credentials (spec 5.1); default fixed test values (`SANDBOX_DEFAULTS`). */
  credentials?: SandboxCredentialsInput;
  /** The account's client UUID (spec 2.4); default a fixed test UUID. */
  clientUuid?: string;
  /** The one URL receiving every event of the account (spec 6.1.1); default none (nothing delivered, deliveries still logged). */
  webhookUrl?: string;
  /** The webhook signing secret (spec 6.1.2); default `SANDBOX_DEFAULTS.webhookSecret`. */
  webhookSecret?: string;
  /** Bearer token lifetime in seconds reported as expires_in (spec 5.5); default 3600 (the sandbox was also seen with 86400). */
  tokenTtlSeconds?: number;
  /**
   * Banks usable for virtual accounts (spec 2.4); default `[]`, as at the partner (its account
   * manager authorizes banks): a virtual account on a bank outside the list answers 400. Pass the
   * banks your tests use (`['bank_a']`), or call `control.setAuthorizedBanks` later.
   */
  authorizedBanks?: string[];
  /** Client-level default user metadata merged at create time, request keys win (spec 2.5); default {}. */
  defaultUserMetadata?: Metadata;
  /** Company name of the client record; default 'Sandbox Client Inc.'. */
  companyName?: string;
  /** Version the account starts pinned to; default none (an older baseline applies until pinned, spec 9). */
  pinnedVersion?: string;
  /**
   * Rate limit per account, across all endpoints, 429 with Retry-After above it. Default on with the
   * partner's values (20/s, burst 50; evidence §1 [T1 REVISION-DOCS §3.3]), so an app that bursts
   * past them fails here as it would at the partner; `false` turns it off (not the partner).
   */
  rateLimit?: boolean | { perSecond: number; burst: number };
  /**
   * Scripted payout lifecycles chosen by the amount's cents (.91 fail, .92 return, .93 ACT cancel,
   * .94 KYT hold resolved silently, .95 stays IN_REVIEW, else completes); default off.
   */
  autoPayouts?: boolean | { stepDelayMs: number };
  /**
   * Payout previews (POST /v1/virtual-accounts/{id}/payout/preview). Default 'partner': as the
   * partner's sandbox does, every preview fails with "Total fees exceed or equal the payout amount"
   * (its fee profiles are at or above 100%, evidence §6 [T3r DRIFT-45]) and WALLET with "No fee profile
   * configured" (DRIFT-46). Opt-in, not the partner: `{ percent, fixed }` answers a working preview.
   */
  payoutFees?: 'partner' | { percent: number; fixed: string };
  /**
   * Life of a quote made by an opt-in-fee preview with `create_quote` (ms). Default 600000: the
   * shorter of the two the partner's pages give (10 or 15 minutes, evidence §6 [T2 Payouts.cs]), so
   * an app that assumes 15 instead of reading `quote_expires_at` fails here first. A short one lets a
   * test see an expired quote refused.
   */
  quoteTtlMs?: number;
  /**
   * How long an Idempotency-Key is remembered (ms); default 86400000, the 24 h of the partner's older
   * readme docs (evidence §11 N40, docs only). After it the same key and body make a new resource,
   * as they would at the partner: a short one lets a test see a retry that came too late.
   */
  idempotencyKeyTtlMs?: number;
  /** Also emit the (weak, provider-facts) rfi.created / rfi.resolved / rfi.not_resolved events; default false. */
  rfiEvents?: boolean;
  /**
   * Delay of each automatic step of a user's verification (CREATED → VERIFYING → REVIEW, and the
   * opt-in outcomes below); default 5000: about 10 s to REVIEW, as the partner's sandbox takes
   * (evidence §3, DRIFT-23). 0, a convenience the partner lacks: the steps run right after the
   * create answer is built (the answer still says CREATED).
   */
  verificationDelayMs?: number;
  /**
   * How a user leaves REVIEW. 'manual' (default, as the partner's sandbox): it stays in REVIEW until
   * the control API decides (`setUserVerificationOutcome`), as the partner's staff do.
   * 'auto-approve': REVIEW → VERIFIED on its own, a convenience the partner does not offer.
   * 'ein-table': a business's `ein` forces the outcome as the partner's docs describe (111111111
   * rejected, 111111113 rejected naming a field, 222221006 review then rejected, 222221005 review
   * then approved, any other approved at once); unverified against the partner; individuals stay manual.
   */
  userVerification?: 'manual' | 'auto-approve' | 'ein-table';
  /**
   * After `control.rotateWebhookSecret`, how long deliveries stay signed with the previous secret;
   * default 60000 ms, as the partner keeps signing with the old secret for about a minute (evidence
   * §9 [T1 REVISION-DOCS §2.4]): an app must accept both secrets meanwhile. 0: the new secret signs
   * at once, a convenience the partner lacks (opt-in). A rotation can also pass its own `overlapMs`.
   */
  webhookSecretOverlapMs?: number;
  /** Timeout of one webhook delivery; default 10000 ms. Deliveries are never retried (spec 6.1.4). */
  webhookTimeoutMs?: number;
  /** Where notes go; default console.warn for warnings only. */
  logger?: SandboxLogger;
  /** Silence every note (default true under Jest, false otherwise). */
  quiet?: boolean;
}

export interface PartnerSandbox {
  /** Root base URL `http://127.0.0.1:PORT`; routes are served at `/` and under `/sandbox`. */
  baseUrl: string;
  /** `baseUrl + '/sandbox'` (spec 1: the sandbox base address). */
  sandboxBaseUrl: string;
  /** Base URL of the control API (`baseUrl + '/__control'`), for `PartnerSandboxControlClient`. */
  controlUrl: string;
  port: number;
  credentials: SandboxCredentials;
  /**
   * The current secret (follows rotateWebhookSecret). For the window after a rotation deliveries
   * are still signed with the previous one (`webhookSecretOverlapMs`).
   */
  webhookSecret: string;
  control: SandboxControl;
  close(): Promise<void>;
}
