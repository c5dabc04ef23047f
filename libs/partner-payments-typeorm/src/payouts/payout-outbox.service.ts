import { Logger } from '@nestjs/common';
import {
  PartnerLocalValidationError,
  type PartnerPayout,
  type PartnerPayoutsService,
} from '@partner-payments/nestjs';
import type { PartnerUnitOfWork } from '../database/unit-of-work.service';
import {
  partnerBody,
  partnerPayoutFingerprint,
  payoutMismatch,
  resolutionProblems,
  storageProblems,
  storedRequest,
  type PartnerOutboxPayoutRequest,
} from './payout-body.util';
import { classifyPartnerFailure } from './partner-failure.util';
import {
  PartnerPayoutFailedError,
  PartnerPayoutNeedsReviewError,
  PartnerPayoutStateError,
} from './payout-outbox.errors';
import type { PartnerPayoutOutboxResolvedOptions } from './payout-outbox.options';
import type {
  PartnerPayoutHooks,
  PartnerPayoutRedriveSummary,
  PartnerPayoutResolution,
  PartnerPayoutSubmission,
} from './payout-outbox.types';
import { PartnerPayoutRequestEntity, type PartnerPayoutRequestState } from './payout-request.entity';
import { PayoutRequestRows } from './payout-request-rows.store';
import { PayoutRedrivePass } from './payout-redrive.service';

/**
 * A crash-safe payout call (spec 8): the Idempotency-Key, a fingerprint and the exact body are
 * committed in partner_payout_requests BEFORE the partner is called, and the same key is sent. If
 * the process dies after the partner created the payout and before its answer was stored, the
 * caller's retry or `redrive()` sends the same key and body again and the partner answers with the
 * original payout instead of creating a second one (provider-facts "Replaying an Idempotency-Key
 * returns the original result"; evidence [T3r DRIFT-34]). The payout.created webhook cannot be
 * relied on for this: it is never re-sent (spec 6.1.4).
 *
 * Provided by PartnerPaymentsTypeOrmModule; it calls the partner through PartnerPayoutsService of
 * @partner-payments/nestjs, found when first used.
 */
export class PartnerPayoutOutbox {
  private readonly logger = new Logger('PartnerPayoutOutbox');
  private readonly rows: PayoutRequestRows;
  private readonly pass: PayoutRedrivePass;

  constructor(
    private readonly uow: PartnerUnitOfWork,
    private readonly options: PartnerPayoutOutboxResolvedOptions,
    private readonly partnerPayouts: () => PartnerPayoutsService,
  ) {
    this.rows = new PayoutRequestRows(uow);
    this.pass = new PayoutRedrivePass(this.rows, options, this.logger, (row, hooks) =>
      this.send(row.idempotencyKey, storedRequest(row), hooks),
    );
  }

  /**
   * Stores the request under `idempotencyKey` (or finds it), sends it with that key, and stores the
   * answer: the row marked created and `hooks.onCreated` in one transaction. Throws
   * PartnerLocalValidationError naming each field that cannot be stored (nothing stored or sent),
   * PartnerPayoutKeyReusedError (the key holds another request; nothing sent),
   * PartnerPayoutNeedsReviewError (pending past the maximum age; nothing sent) or
   * PartnerPayoutFailedError (the partner's call failed; `failure.kind` says whether a retry with
   * the same key is safe; `refused` marks the row rejected). A rejected request is sent again
   * when submitted again (the partner answers for its key), pending again while it is sent.
   */
  async submit(
    idempotencyKey: string,
    request: PartnerOutboxPayoutRequest,
    hooks: PartnerPayoutHooks = {},
  ): Promise<PartnerPayoutSubmission> {
    const problems = storageProblems(idempotencyKey, request);
    if (problems.length) throw new PartnerLocalValidationError(problems); // nothing stored, nothing sent
    const row = await this.rows.reserve(idempotencyKey, request, partnerPayoutFingerprint(request));
    if (row.state === 'created' && row.payoutId !== null)
      return { outcome: 'already-created', payoutId: row.payoutId };
    const age = Date.now() - row.createdAt.getTime();
    if (row.state === 'needs_review' || (row.state === 'pending' && age > this.options.maxAgeMs)) {
      // The partner may have forgotten this key by now: sending it again could create a second payout.
      if (row.state === 'pending')
        await this.rows.settle(idempotencyKey, 'needs_review', 'a retry came past the maximum age');
      throw new PartnerPayoutNeedsReviewError(idempotencyKey);
    }
    if (row.state === 'rejected') await this.rows.reopen(idempotencyKey, this.options.graceMs);
    try {
      return await this.send(idempotencyKey, request, hooks);
    } catch (error) {
      if (!(error instanceof PartnerPayoutFailedError)) throw error; // our database or the hook: the row stays pending
      const { failure } = error;
      if (failure.kind === 'refused') await this.rows.settle(idempotencyKey, 'rejected', failure.message);
      if (failure.kind === 'unknown-outcome')
        this.logger.warn(`payout request ${idempotencyKey} has an unknown outcome: ${failure.message}`);
      if (failure.kind === 'our-configuration')
        this.logger.error(`partner refused our credentials or account (${failure.status}) creating a payout`);
      throw error;
    }
  }

  /**
   * One re-drive pass: every request pending past `payouts.graceMs` and due is claimed (one
   * replica sends it; a claim holds for a grace) and sent again with its key and body; one past
   * `payouts.maxAgeMs` is marked needs_review instead, never sent. Run it on a schedule under
   * PartnerJobLockService; `signal` stops it before its next send (the sends in flight end
   * and are stored; it then rejects with the signal's reason). A 429 ends the pass, and this
   * process sends nothing more until its Retry-After (at most 15 min) has passed.
   */
  redrive(options: PartnerPayoutHooks & { signal?: AbortSignal } = {}): Promise<PartnerPayoutRedriveSummary> {
    return this.pass.run(options);
  }

  /** The stored request of a key, or null. */
  find(idempotencyKey: string): Promise<PartnerPayoutRequestEntity | null> {
    return this.rows.find(idempotencyKey);
  }

  /** Requests per state (states without a request are absent). */
  countByState(): Promise<Partial<Record<PartnerPayoutRequestState, number>>> {
    return this.rows.counts();
  }

  /** The requests left to an operator, newest first. */
  needsReview(limit = 100): Promise<PartnerPayoutRequestEntity[]> {
    return this.rows.needsReview(Math.max(1, Math.min(1000, Math.trunc(limit) || 1)));
  }

  /**
   * An operator's finding for a needs_review request, after checking the partner: `{ payoutId }`
   * reads that payout from the partner and stores it (the row created and `hooks.onCreated` in one
   * transaction); `{ payoutId: null, reason }` closes it as rejected. PartnerPayoutStateError when
   * the request is not needs_review; PartnerLocalValidationError naming `resolution`, `reason` or
   * `payoutId` for a malformed finding, and naming `payoutId` when that payout
   * is stored for another request or differs from this one (account, recipient, amount, currency).
   */
  async resolve(
    idempotencyKey: string,
    resolution: PartnerPayoutResolution,
    hooks: PartnerPayoutHooks = {},
  ): Promise<PartnerPayoutRequestEntity> {
    const problems = resolutionProblems(resolution);
    if (problems.length) throw new PartnerLocalValidationError(problems);
    const row = await this.rows.find(idempotencyKey);
    if (row?.state !== 'needs_review') throw new PartnerPayoutStateError(idempotencyKey, row?.state ?? null);
    if (resolution.payoutId === null) {
      await this.uow.run((m) =>
        m.update(
          PartnerPayoutRequestEntity,
          { idempotencyKey, state: 'needs_review' },
          {
            state: 'rejected',
            lastError: `resolved by an operator: ${resolution.reason}`.slice(0, 2000),
            updatedAt: new Date(),
          },
        ),
      );
    } else {
      const payout = await this.partnerPayouts().get(resolution.payoutId);
      // A mistyped id must not file another request's payout here (and leave this one's unknown).
      const holder = await this.rows.holderOf(payout.payoutId);
      const problem =
        holder !== null && holder !== idempotencyKey
          ? `payout ${payout.payoutId} is stored for another request`
          : payoutMismatch(row, payout);
      if (problem) throw new PartnerLocalValidationError([{ field: 'payoutId', message: problem }]);
      await this.store(idempotencyKey, storedRequest(row), payout, hooks, 'needs_review');
    }
    const after = await this.rows.find(idempotencyKey);
    if (after?.state === 'needs_review') throw new PartnerPayoutStateError(idempotencyKey, after.state);
    return after as PartnerPayoutRequestEntity;
  }

  /**
   * Sends with the key, outside any transaction (never hold the database over the network), then
   * stores. A partner failure is thrown as PartnerPayoutFailedError; a failure to store as it is.
   */
  private async send(
    key: string,
    request: PartnerOutboxPayoutRequest,
    hooks: PartnerPayoutHooks,
  ): Promise<PartnerPayoutSubmission & { outcome: 'created' }> {
    let payout: PartnerPayout;
    try {
      payout = await this.partnerPayouts().create(request.virtualAccountId, partnerBody(request.body), {
        idempotencyKey: key,
      });
    } catch (error) {
      throw new PartnerPayoutFailedError(key, classifyPartnerFailure(error), { cause: error });
    }
    await this.store(key, request, payout, hooks, null);
    return { outcome: 'created', payoutId: payout.payoutId, payout };
  }

  /** The row created and the user's write, one transaction; `from` guards an operator's resolution. */
  private store(
    key: string,
    request: PartnerOutboxPayoutRequest,
    payout: PartnerPayout,
    hooks: PartnerPayoutHooks,
    from: 'needs_review' | null,
  ): Promise<void> {
    return this.uow.transaction(async (m) => {
      if (from !== null) {
        const held = await m.findOne(PartnerPayoutRequestEntity, {
          where: { idempotencyKey: key, state: from },
        });
        if (!held) return;
      }
      // Another send of the key stored it first: its transaction ran the hook.
      if (!(await this.rows.markCreated(m, key, payout.payoutId))) return;
      await hooks.onCreated?.(payout, m, { idempotencyKey: key, ...request });
    });
  }
}
