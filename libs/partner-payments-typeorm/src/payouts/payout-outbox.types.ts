import type { PartnerPayout } from '@partner-payments/nestjs';
import type { EntityManager } from 'typeorm';
import type { PartnerOutboxPayoutRequest } from './payout-body.util';

/** The request a hook is called for: its key, account and body as first submitted. */
export interface PartnerOutboxPayoutContext extends PartnerOutboxPayoutRequest {
  idempotencyKey: string;
}

/**
 * Your write for a payout the partner answered (your payouts table, a ledger line). It runs in the
 * transaction that marks the outbox row created, through PartnerUnitOfWork (write with `manager`,
 * or with `uow.run`/`uow.transaction`, which join it): both commit, or neither does and the row
 * stays pending for the re-drive. Once per request when that transaction commits (a send of the
 * same key answered beside it finds the row created and skips it); called again for the same
 * payout if that transaction failed, so make it idempotent on `payout.payoutId`.
 */
export type PartnerPayoutCreatedHook = (
  payout: PartnerPayout,
  manager: EntityManager,
  request: PartnerOutboxPayoutContext,
) => Promise<void>;

export interface PartnerPayoutHooks {
  onCreated?: PartnerPayoutCreatedHook;
}

/**
 * What `submit` resolved to:
 * - `created`: the partner answered now (its first answer, or its replay of the key) and the row
 *   is created, `onCreated` committed with it;
 * - `already-created`: the key's request was created before; nothing was sent: read your own row
 *   of `payoutId`.
 */
export type PartnerPayoutSubmission =
  | { outcome: 'created'; payoutId: string; payout: PartnerPayout }
  | { outcome: 'already-created'; payoutId: string };

/** What one `redrive()` pass did. */
export interface PartnerPayoutRedriveSummary {
  /** Requests sent to the partner again in this pass. */
  resent: number;
  /** Sent again and stored: the partner's answer (its replay of the key, or a first creation). */
  created: number;
  /** Refused by the partner (4xx other than 401/403/409/429) or by the module's validation. */
  rejected: number;
  /** 409, 429, 5xx, timeout, reset, or our credentials refused: due again after a backoff. */
  retrying: number;
  /** Pending past `payouts.maxAgeMs`: not sent, marked needs_review for an operator. */
  needsReview: number;
}

/** An operator's finding about a needs_review request, after checking the partner. */
export type PartnerPayoutResolution =
  /** The partner holds this payout for the request: it is read from the partner and stored (`onCreated`). */
  | { payoutId: string }
  /** The partner never created it: the request is closed as rejected with this reason. */
  | { payoutId: null; reason: string };
