import { Inject, Injectable, Logger } from '@nestjs/common';
import { PartnerVirtualAccountsService, type PartnerDeposit } from '@partner-payments/nestjs';
import { canonicalPartnerStatus } from '@partner-payments/nestjs/models';
import { APP_CONFIG, type AppConfig } from '../../config/app.config';
import { DepositEntity } from '../../webhooks/projections/deposit.entity';
import { decideDepositStatus } from '../../webhooks/projections/deposit-status.policy';
import { toDepositObservation } from '../../webhooks/projections/deposit-observation.util';
import { ResourceProjections } from '../../webhooks/projections/resource-projections.service';
import { PartnerJobLockService, PartnerUnitOfWork } from '@partner-payments/typeorm';
import { AppMetrics } from '../../observability/app-metrics.service';
import {
  DEPOSIT_RECONCILIATION_JOB,
  readDepositCheckpoint,
  writeDepositCheckpoint,
  type RecheckCursor,
} from './deposit-checkpoint.store';
import { pickCompletedDeposits, pickOpenDeposits, type DepositRow } from './deposit-rereads.store';

export { DEPOSIT_RECONCILIATION_JOB } from './deposit-checkpoint.store';

/** Rows per page: the partner's maximum (evidence §5: limit 1-100). */
const PAGE_SIZE = 100;
/** Deposits newer than watermark minus this are re-read on a newest-first list (late writes, clock skew). */
const OVERLAP_MS = 60 * 60 * 1000;

export interface DepositReconciliationSummary {
  /** false when another replica held the lock: this pass did nothing. */
  ran: boolean;
  pages: number;
  read: number;
  /** Deposits the app did not have (their webhook was lost). */
  missing: number;
  /** Deposits whose status differed from the app's (an outcome that never arrived as an event). */
  changed: number;
}

/**
 * docs/partner-api.md §6.4.8: the outcome of a hold "may not arrive as an event; the final state is
 * read from the deposit", and the partner does not re-send a lost webhook (§6.1). This job reads the
 * partner's deposit list (GET /v1/virtual-accounts/deposits, paged: evidence §5 [T1 REVISION-DOCS
 * §3.3]) since its checkpoint and projects every deposit the app lacks or holds with another status,
 * by emitting the same deposit event the webhook path emits, so handlers see one stream. Safe on
 * several replicas: one pass at a time under the job lock.
 *
 * The list's order is not documented: on a newest-first list the pass stops at the first page older
 * than the checkpoint's watermark (minus an hour's overlap); on an oldest-first list it resumes at
 * the last full page. Either way, deposits the app holds in a non-final status are also read one by
 * one (a hold released long after arrival), and so are COMPLETED deposits updated within
 * RECONCILE_COMPLETED_WINDOW_HOURS (a refund after settlement, which no 2026-04-14 event reports),
 * at most DEPOSIT_RECONCILE_RECHECK_LIMIT a pass, rotating.
 */
@Injectable()
export class DepositReconciliationService {
  private readonly logger = new Logger('DepositReconciliation');

  constructor(
    private readonly uow: PartnerUnitOfWork,
    private readonly locks: PartnerJobLockService,
    private readonly virtualAccounts: PartnerVirtualAccountsService,
    private readonly projections: ResourceProjections,
    private readonly metrics: AppMetrics,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async runOnce(options: { tick?: Date } = {}): Promise<DepositReconciliationSummary> {
    const run = await this.locks.runExclusive(
      DEPOSIT_RECONCILIATION_JOB,
      (signal) => this.pass(signal),
      options,
    );
    if (run.ran) this.metrics.reconciliationPass('deposits', run.result, ['read', 'missing', 'changed']);
    return run.ran ? run.result : { ran: false, pages: 0, read: 0, missing: 0, changed: 0 };
  }

  private async pass(signal?: AbortSignal): Promise<DepositReconciliationSummary> {
    const summary: DepositReconciliationSummary = { ran: true, pages: 0, read: 0, missing: 0, changed: 0 };
    const checkpoint = await readDepositCheckpoint(this.uow);
    const seen = new Set<string>();
    let newest = checkpoint.watermark;
    let fullPages = checkpoint.fullPages;
    let descending: boolean | null = null;
    for (let page = Math.max(1, checkpoint.fullPages); ; page++) {
      signal?.throwIfAborted(); // the job lock was lost: another replica may be on it
      const result = await this.virtualAccounts.listAllDeposits({ page, limit: PAGE_SIZE });
      summary.pages += 1;
      const rows = result.data;
      if (rows.length >= 2 && descending === null) descending = time(rows[0]) > time(rows[rows.length - 1]);
      for (const row of rows) {
        summary.read += 1;
        if (typeof row.deposit_id === 'string') seen.add(row.deposit_id);
        const outcome = await this.project(row);
        if (outcome === 'missing') summary.missing += 1;
        if (outcome === 'changed') summary.changed += 1;
        if (typeof row.created_at === 'string' && (newest === null || row.created_at > newest))
          newest = row.created_at;
      }
      if (descending === false && rows.length === PAGE_SIZE) fullPages = page;
      const olderThanCheckpoint =
        descending === true &&
        checkpoint.watermark !== null &&
        rows.every((r) => time(r) < Date.parse(checkpoint.watermark as string) - OVERLAP_MS);
      if (!result.hasMore || rows.length === 0 || olderThanCheckpoint) break;
    }
    const open = await this.refreshOpenDeposits(seen, checkpoint.openCursor);
    summary.changed += open.changed;
    const recheck = await this.recheckCompletedDeposits(seen, checkpoint.recheckCursor);
    summary.changed += recheck.changed;
    await writeDepositCheckpoint(this.uow, {
      watermark: newest,
      fullPages: descending === true ? 0 : fullPages,
      recheckCursor: recheck.cursor,
      openCursor: open.cursor,
    });
    if (summary.missing + summary.changed > 0)
      this.logger.warn(
        `pass: ${summary.read} deposits read, ${summary.missing} missing and ${summary.changed} changed (webhooks lost or outcomes only on the resource)`,
      );
    return summary;
  }

  /**
   * Deposits the app holds in a non-final status that the list pass did not cover (a hold released
   * long after arrival: evidence §5, spec 6.4.8), read one by one: at most DEPOSIT_RECONCILE_OPEN_LIMIT
   * a pass, in deposit_id order from where the previous pass stopped, then from the first again. A
   * KYT_REJECTED deposit may wait for its release for ever, so their number has no bound of its
   * own; without the cap one pass would spend the account's whole rate budget (20/s, evidence §1)
   * for n / 20 s under the job lock. Each is read once every ceil(n / limit) passes.
   */
  private async refreshOpenDeposits(
    seen: Set<string>,
    after: string | null,
  ): Promise<{ changed: number; cursor: string | null }> {
    const limit = Math.max(1, this.config.depositOpenLimit);
    const picked = await pickOpenDeposits(this.uow, seen, after, limit);
    // Read once a pass: one released to COMPLETED here is not read again by the recheck.
    for (const row of picked) seen.add(row.depositId);
    const changed = await this.reread(picked);
    if (picked.length >= limit)
      this.logger.log(
        `open-deposit reads: ${limit} read this pass (DEPOSIT_RECONCILE_OPEN_LIMIT); the next passes read on after ${picked[picked.length - 1].depositId}`,
      );
    // A full pass resumes after its last read; a pass that read all there was starts over next time.
    return { changed, cursor: picked.length >= limit ? picked[picked.length - 1].depositId : null };
  }

  /**
   * A COMPLETED deposit is not final (evidence §5 [T1 REVISION-DOCS §2.1]: only FAILED and REFUNDED
   * are): an ACH return after settlement makes it REFUNDED, and the only event for that,
   * `virtual_account.deposit_funds_refunded`, is not in the contract's 2026-04-14 list (spec 6.3;
   * evidence §9), while a lost webhook is never re-sent (spec 6.1.4) and the final state is read
   * from the deposit (spec 6.4.8). The list pass reads only since its checkpoint, so a deposit
   * refunded later is read here: the COMPLETED deposits whose row changed within
   * RECONCILE_COMPLETED_WINDOW_HOURS (the payouts' return window, reused) that the list did not
   * show, at most DEPOSIT_RECONCILE_RECHECK_LIMIT a pass (the partner allows 20 requests/s per
   * account, shared by every call, evidence §1). Past the limit the reads rotate: each pass resumes
   * after the last deposit the previous one read (most recently updated first, then wrapping), so
   * every deposit in the window is read once every ceil(n / limit) passes, the ones that settled
   * days ago (when ACH returns arrive) as much as the new ones. `updated_at` moves only when an
   * event or a change is applied, so a deposit leaves the window once it has stayed COMPLETED that long.
   */
  private async recheckCompletedDeposits(
    seen: Set<string>,
    after: RecheckCursor | null,
  ): Promise<{ changed: number; cursor: RecheckCursor | null }> {
    const windowHours = this.config.reconcile.completedWindowHours;
    const limit = this.config.depositRecheckLimit;
    if (windowHours <= 0 || limit <= 0) return { changed: 0, cursor: null };
    const since = new Date(Date.now() - windowHours * 3_600_000);
    const { picked, total } = await pickCompletedDeposits(this.uow, seen, after, since, limit);
    // Information, not a warning: with more than `limit` deposits a window this is every pass.
    if (total > limit)
      this.logger.log(
        `completed-deposit recheck: ${total} COMPLETED deposits updated within ${windowHours} h, ${picked.length} read this pass (DEPOSIT_RECONCILE_RECHECK_LIMIT ${limit}); the next passes read on from where this one stopped`,
      );
    const changed = await this.reread(picked);
    const last = picked.at(-1);
    // Everything fits in one pass: no rotation to keep.
    const cursor =
      total > limit && last ? { updatedAt: last.updatedAt.toISOString(), depositId: last.depositId } : null;
    return { changed, cursor };
  }

  /** Reads each deposit from the partner and projects it; answers how many changed. */
  private async reread(rows: DepositRow[]): Promise<number> {
    let changed = 0;
    for (const row of rows) {
      try {
        const resource = await this.virtualAccounts.getDeposit(row.virtualAccountId as string, row.depositId);
        if ((await this.project(resource)) === 'changed') changed += 1;
      } catch (error) {
        this.logger.warn(`deposit ${row.depositId}: read failed: ${(error as Error).message}`);
      }
    }
    return changed;
  }

  /** Projects the deposit when the app lacks it or holds another status, as its webhook would. */
  private async project(resource: PartnerDeposit): Promise<'missing' | 'changed' | 'same'> {
    const depositId = resource.deposit_id ?? (resource.id as string | undefined);
    if (typeof depositId !== 'string') return 'same';
    const status = canonicalPartnerStatus(resource.status ?? null);
    const local = await this.uow.run((m) => m.findOne(DepositEntity, { where: { depositId } }));
    // Same rule as the webhook path (deposit-status.policy.ts): a status the projection would not
    // take (a final one stored, or a list row read before a newer webhook) is no drift and no write.
    if (local && decideDepositStatus(local.status, status) === local.status) return 'same';
    const kind = local?.kind === 'microdeposit' ? 'microdeposit' : 'deposit';
    const observation = toDepositObservation(depositId, kind, {
      ...resource,
      virtual_account_id: resource.virtual_account_id ?? local?.virtualAccountId,
    });
    // In its own unit of work, where the projection re-reads the row under its lock and decides again.
    await this.projections.applyDeposit(observation);
    return local ? 'changed' : 'missing';
  }
}

const time = (d: PartnerDeposit): number => Date.parse(String(d.created_at ?? '')) || 0;
