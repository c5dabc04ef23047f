import type { AccessTokenSigner } from '../resources/auth/access-token.util';
import type { Response } from 'express';
import type { FaultStore } from '../middleware/faults.store';
import type { IdempotencyStore } from '../middleware/idempotency.store';
import type { SandboxLogger } from './sandbox.types';
import type { StateStore } from './state.store';
import type { ClientAccount, VirtualAccountRecord } from './state.types';
import type { Telemetry } from './telemetry.store';
import type { WebhookSender } from '../webhooks/webhook-sender.service';
import type { DocumentLinkSigner } from '../resources/rfis/document-link.util';

export interface ResolvedOptions {
  tokenTtlSeconds: number;
  verificationDelayMs: number;
  userVerification: 'manual' | 'auto-approve' | 'ein-table';
  rateLimit: { perSecond: number; burst: number } | null;
  autoPayouts: { stepDelayMs: number } | null;
  rfiEvents: boolean;
  payoutFees: 'partner' | { percent: number; fixed: string };
  /** Life of a quote a preview makes (evidence §6: read quote_expires_at). */
  quoteTtlMs: number;
  /** How long the previous webhook secret keeps signing after a rotation (evidence §9). */
  webhookSecretOverlapMs: number;
}

/** Everything a route handler needs; one per sandbox instance (no module-level state). */
export interface SandboxContext {
  options: ResolvedOptions;
  store: StateStore;
  idempotency: IdempotencyStore;
  telemetry: Telemetry;
  faults: FaultStore;
  webhooks: WebhookSender;
  logger: SandboxLogger;
  /** Signs and checks the bearer tokens (RS256 JWTs, evidence §11 N8). */
  accessTokens: AccessTokenSigner;
  /** Signs the short-lived document download links (evidence §7). */
  documentLinks: DocumentLinkSigner;
  /** Timers of delayed transitions, cleared on close/reset. */
  timers: Set<NodeJS.Timeout>;
}

/** Per-request state kept in res.locals.sandbox (typed access instead of Express's `any` locals). */
export interface RequestState {
  account?: ClientAccount;
  body?: unknown;
  rawBody?: Buffer;
  bodySha256?: string;
  version?: string;
  fault?: string;
}

export function requestState(res: Response): RequestState {
  const locals = res.locals as { sandbox?: RequestState };
  locals.sandbox ??= {};
  return locals.sandbox;
}

/** The authenticated account; only call after the auth middleware. */
export function accountOf(res: Response): ClientAccount {
  const account = requestState(res).account;
  if (!account) throw new Error('route used without the auth middleware');
  return account;
}

/**
 * The virtual account a control call or scenario names (ids are kept lowercase, as the partner
 * answers them): a programming error in the test that calls it when absent, so it throws.
 */
export function virtualAccountFor(ctx: Pick<SandboxContext, 'store'>, id: string): VirtualAccountRecord {
  const va = ctx.store.virtualAccounts.get(id.toLowerCase());
  if (!va) throw new Error(`unknown virtual account ${id}`);
  return va;
}
