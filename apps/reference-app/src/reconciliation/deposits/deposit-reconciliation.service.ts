import { Inject, Injectable, Logger } from '@nestjs/common';
import {
  PartnerEvent,
  PartnerVirtualAccountsService,
  PartnerWebhookDispatcher,
  canonicalPartnerStatus,
  type PartnerDeposit,
  type PartnerWebhookEvent,
} from '@partner-payments/nestjs';
import { In, IsNull, Like, MoreThanOrEqual, Not } from 'typeorm';
import { APP_CONFIG, type AppConfig } from '../../config/app.config';
import { DepositEntity } from '../../webhooks/projections/deposit.entity';
import { decideDepositStatus } from '../../webhooks/projections/deposit-status.policy';
import { JobLockEntity } from '../../scheduling/job-lock.entity';
import { UnitOfWork } from '../../database/unit-of-work.service';
import { AppMetrics } from '../../observability/app-metrics.service';
import { JobLockService } from '../../scheduling/job-lock.service';

export const DEPOSIT_RECONCILIATION_JOB = 'deposit-reconciliation';

/** Rows per page: the partner's maximum (evidence §5: limit 1-100). */
const PAGE_SIZE = 100;
/** Deposits newer than watermark minus this are re-read on a newest-first list (late writes, clock skew). */
const OVERLAP_MS = 60 * 60 * 1000;
/**
 * COMPLETED deposits re-read one by one per pass, at most (most recently updated first). The
 * partner allows 20 requests/s per account, shared by every endpoint (evidence §1 [T1
 * REVISION-DOCS §3.3]), and the pass runs every 5 minutes by default: 200 reads are 10 s of the
 * whole budget (about 0.7 requests/s averaged over 5 minutes, a thirtieth of it), so payouts and
 * onboarding keep the rest while the recheck runs.
 */
export const COMPLETED_RECHECK_CAP = 200;

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

interface Checkpoint {
  /** Newest created_at seen. */
  watermark: string | null;
  /** On an oldest-first list: the last page that was full, where the next pass starts. */
  fullPages: number;
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
 * at most COMPLETED_RECHECK_CAP a pass.
 */
@Injectable()
export class DepositReconciliationService {
  private readonly logger = new Logger('DepositReconciliation');

  constructor(
    private readonly uow: UnitOfWork,
    private readonly locks: JobLockService,
    private readonly virtualAccounts: PartnerVirtualAccountsService,
    private readonly dispatcher: PartnerWebhookDispatcher,
    private readonly metrics: AppMetrics,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async runOnce(options: { tick?: Date } = {}): Promise<DepositReconciliationSummary> {
    const run = await this.locks.runExclusive(DEPOSIT_RECONCILIATION_JOB, () => this.pass(), options);
    if (run.ran) this.metrics.reconciliationPass('deposits', run.result, ['read', 'missing', 'changed']);
    return run.ran ? run.result : { ran: false, pages: 0, read: 0, missing: 0, changed: 0 };
  }

  private async pass(): Promise<DepositReconciliationSummary> {
    const summary: DepositReconciliationSummary = { ran: true, pages: 0, read: 0, missing: 0, changed: 0 };
    const checkpoint = await this.readCheckpoint();
    const seen = new Set<string>();
    let newest = checkpoint.watermark;
    let fullPages = checkpoint.fullPages;
    let descending: boolean | null = null;
    for (let page = Math.max(1, checkpoint.fullPages); ; page++) {
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
    summary.changed += await this.refreshOpenDeposits(seen);
    summary.changed += await this.recheckCompletedDeposits(seen);
    await this.writeCheckpoint({ watermark: newest, fullPages: descending === true ? 0 : fullPages });
    if (summary.missing + summary.changed > 0)
      this.logger.warn(
        `pass: ${summary.read} deposits read, ${summary.missing} missing and ${summary.changed} changed (webhooks lost or outcomes only on the resource)`,
      );
    return summary;
  }

  /** Deposits the app holds in a non-final status that the list pass did not cover: read each. */
  private async refreshOpenDeposits(seen: Set<string>): Promise<number> {
    const open = await this.uow.run((m) =>
      m.find(DepositEntity, {
        where: { status: In(['PENDING', 'KYT_PENDING', 'KYT_REJECTED', 'RECEIVED']) },
      }),
    );
    let changed = 0;
    for (const row of open) {
      if (seen.has(row.depositId) || !row.virtualAccountId || row.depositId.startsWith('event:')) continue;
      // Read once a pass: one released to COMPLETED here is not read again by the recheck.
      seen.add(row.depositId);
      try {
        const resource = await this.virtualAccounts.getDeposit(row.virtualAccountId, row.depositId);
        if ((await this.project(resource)) === 'changed') changed += 1;
      } catch (error) {
        this.logger.warn(`deposit ${row.depositId}: read failed: ${(error as Error).message}`);
      }
    }
    return changed;
  }

  /**
   * A COMPLETED deposit is not final (evidence §5 [T1 REVISION-DOCS §2.1]: only FAILED and REFUNDED
   * are): an ACH return after settlement makes it REFUNDED, and the only event for that,
   * `virtual_account.deposit_funds_refunded`, is not in the contract's 2026-04-14 list (spec 6.3;
   * evidence §9), while a lost webhook is never re-sent (spec 6.1.4) and the final state is read
   * from the deposit (spec 6.4.8). The list pass reads only since its checkpoint, so a deposit
   * refunded later is read here: every COMPLETED deposit whose row changed within
   * RECONCILE_COMPLETED_WINDOW_HOURS (the payouts' return window, reused) that the list did not
   * show, most recently updated first, at most COMPLETED_RECHECK_CAP a pass. `updated_at` moves
   * only when an event or a change is applied (`project()` writes nothing for the same status), so
   * a deposit leaves the window once it has stayed COMPLETED that long.
   */
  private async recheckCompletedDeposits(seen: Set<string>): Promise<number> {
    const windowHours = this.config.reconcile.completedWindowHours;
    if (windowHours <= 0) return 0;
    const since = new Date(Date.now() - windowHours * 3_600_000);
    // Readable by GET: a virtual account known, and a real deposit_id (not an event-derived key).
    const where = {
      status: 'COMPLETED',
      updatedAt: MoreThanOrEqual(since),
      virtualAccountId: Not(IsNull()),
      depositId: Not(Like('event:%')),
    };
    // Enough rows to fill the cap once those this pass already read are skipped.
    const [rows, total] = await this.uow.run((m) =>
      m.findAndCount(DepositEntity, {
        select: { depositId: true, virtualAccountId: true },
        where,
        order: { updatedAt: 'DESC', depositId: 'ASC' },
        take: COMPLETED_RECHECK_CAP + seen.size,
      }),
    );
    const unread = rows.filter((row) => !seen.has(row.depositId));
    const picked = unread.slice(0, COMPLETED_RECHECK_CAP);
    // Exact unless rows past those fetched were read by the list pass (then an upper bound).
    const leftOut = total - (rows.length - unread.length) - picked.length;
    if (leftOut > 0)
      this.logger.warn(
        `completed-deposit recheck capped at ${COMPLETED_RECHECK_CAP} a pass: ${leftOut} COMPLETED deposits updated within ${windowHours} h not re-read (most recently updated first)`,
      );
    let changed = 0;
    for (const row of picked) {
      try {
        const resource = await this.virtualAccounts.getDeposit(row.virtualAccountId as string, row.depositId);
        if ((await this.project(resource)) === 'changed') changed += 1;
      } catch (error) {
        this.logger.warn(`deposit ${row.depositId}: read failed: ${(error as Error).message}`);
      }
    }
    return changed;
  }

  /** Emits the webhook path's own deposit event when the app lacks the deposit or holds another status. */
  private async project(resource: PartnerDeposit): Promise<'missing' | 'changed' | 'same'> {
    const depositId = resource.deposit_id ?? (resource.id as string | undefined);
    if (typeof depositId !== 'string') return 'same';
    const status = canonicalPartnerStatus(resource.status ?? null);
    const local = await this.uow.run((m) => m.findOne(DepositEntity, { where: { depositId } }));
    // Same rule as the webhook path (deposit-status.policy.ts): a status the projection would not
    // take (a final one stored, or a list row read before a newer webhook) is no drift and no event.
    if (local && decideDepositStatus(local.status, status) === local.status) return 'same';
    const name =
      local?.kind === 'microdeposit'
        ? PartnerEvent.VirtualAccountMicrodepositFundsReceived
        : PartnerEvent.VirtualAccountDepositFundsReceived;
    const eventId = `reconciliation:${depositId}:${status ?? 'unknown'}`;
    const payload = {
      event_id: eventId,
      deposit_id: depositId,
      user_id: resource.user_id,
      virtual_account_id: resource.virtual_account_id ?? local?.virtualAccountId ?? undefined,
      amount: resource.amount,
      currency: resource.currency,
      status: resource.status,
      created_at: resource.created_at as string | undefined,
      source: resource.source,
    };
    const event: PartnerWebhookEvent<string, unknown> = {
      name,
      eventId,
      envelope: 'flat',
      known: true,
      status,
      rawStatus: resource.status ?? null,
      previousStatus: local?.status ?? null,
      occurredAt: (resource.created_at as string | undefined) ?? null,
      payload,
      body: { event: name, data: payload, source: 'reconciliation' },
    };
    // The projection handler writes inside this transaction; the event and the row agree.
    await this.uow.transaction(() => this.dispatcher.dispatch(event));
    return local ? 'changed' : 'missing';
  }

  private async readCheckpoint(): Promise<Checkpoint> {
    const row = await this.uow.run((m) =>
      m.findOne(JobLockEntity, { where: { name: DEPOSIT_RECONCILIATION_JOB } }),
    );
    try {
      const parsed = JSON.parse(row?.checkpoint ?? 'null') as Partial<Checkpoint> | null;
      return { watermark: parsed?.watermark ?? null, fullPages: parsed?.fullPages ?? 0 };
    } catch {
      return { watermark: null, fullPages: 0 };
    }
  }

  private async writeCheckpoint(checkpoint: Checkpoint): Promise<void> {
    await this.uow.run((m) =>
      m.update(
        JobLockEntity,
        { name: DEPOSIT_RECONCILIATION_JOB },
        { checkpoint: JSON.stringify(checkpoint) },
      ),
    );
  }
}

const time = (d: PartnerDeposit): number => Date.parse(String(d.created_at ?? '')) || 0;
