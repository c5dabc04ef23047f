import { randomUUID } from 'node:crypto';
import { ReconciliationPassEntity } from '../database/entities';
import { insertIfAbsent } from '../database/insert-if-absent.util';
import { returningRows } from '../database/returning.util';
import type { UnitOfWork } from '../database/unit-of-work.service';
import { TICK_SKEW_MS } from '../scheduling/job-lock.service';
import { SqlParams } from '../database/sql-params.util';

/** A pass nobody has moved for this long is abandoned (its replicas died) and replaced. */
export const PASS_STALE_MS = 120_000;

/** `list_done`: 0 while pages are handed out, 1 once the end was seen, 2 when the list failed. */
export type ListState = 'listing' | 'done' | 'failed';
const LIST_STATES: ListState[] = ['listing', 'done', 'failed'];

/** The pass a replica takes part in. */
export interface Pass {
  passId: string;
  /** Payouts checked at or after this instant are checked in this pass; only older ones qualify. */
  startedAt: Date;
  /** The list's `from_date`; null: every payout is read by GET. */
  fromDate: string | null;
  /** Candidates created before this are read by GET even when the list is used (see chooseListWindow). */
  readBefore: Date | null;
  /** Whether this replica opened it (the others joined). */
  opened: boolean;
}

/**
 * The pass in progress, shared by every replica (one row per job in `reconciliation_passes`).
 * Every change is one atomic statement, so it works the same on PostgreSQL and on a SQLite file
 * used by several processes:
 * - open: a conditional UPDATE that only succeeds when no live pass exists (none yet, the last one
 *   finished, or abandoned); whoever loses it joins the pass the winner opened;
 * - pages: `next_page = next_page + 1 ... RETURNING`, each page of the partner's list to one replica;
 * - `pages_in_flight` says when every page handed out has been settled, so single reads start only
 *   after the list could no longer settle the payout.
 */
export class ReconciliationPassStore {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly job: string,
  ) {}

  /**
   * Joins the live pass or opens one. With a cron `tick`, a pass already opened for that tick
   * (within TICK_SKEW_MS, any replica) is joined if still running and not repeated if finished:
   * null. `window` is used only when this call opens the pass.
   */
  async joinOrOpen(
    now: Date,
    tick: Date | null,
    window: { fromDate: string | null; readBefore: Date | null },
  ): Promise<Pass | null> {
    await this.uow.run((m) =>
      insertIfAbsent(m, this.uow.kind, 'reconciliation_passes', 'job', {
        job: this.job,
        next_page: 1,
        pages_in_flight: 0,
        list_done: 0,
      }),
    );
    const passId = randomUUID();
    // The list window travels in from_date; readBefore is derived from it (the day after).
    const p = new SqlParams(this.uow.kind);
    const sql = `UPDATE reconciliation_passes
      SET pass_id = ${p.add(passId)}, tick = ${p.add(tick)}, started_at = ${p.add(now)},
          heartbeat_at = ${p.add(now)}, finished_at = NULL, from_date = ${p.add(window.fromDate)},
          next_page = 1, pages_in_flight = 0, list_done = 0
      WHERE job = ${p.add(this.job)}
        AND (pass_id IS NULL OR finished_at IS NOT NULL OR heartbeat_at < ${p.add(new Date(now.getTime() - PASS_STALE_MS))})
        ${tick ? `AND (tick IS NULL OR tick < ${p.add(new Date(tick.getTime() - TICK_SKEW_MS))})` : ''}
      RETURNING pass_id`;
    const opened = await this.uow.run((m) => returningRows(m, sql, p.values));
    const row = await this.uow.run((m) =>
      m.findOneOrFail(ReconciliationPassEntity, { where: { job: this.job } }),
    );
    if (opened.length === 0 && row.finishedAt !== null) return null; // this tick's pass already ran
    return {
      passId: row.passId as string,
      startedAt: row.startedAt as Date,
      fromDate: row.fromDate,
      readBefore: row.fromDate ? new Date(Date.parse(`${row.fromDate}T00:00:00.000Z`) + 86_400_000) : null,
      opened: opened.length === 1,
    };
  }

  /** The next page of the list for this replica, or null once the list is done (or failed). */
  async takePage(pass: Pass, now: Date): Promise<number | null> {
    const p = new SqlParams(this.uow.kind);
    const sql = `UPDATE reconciliation_passes
      SET next_page = next_page + 1, pages_in_flight = pages_in_flight + 1, heartbeat_at = ${p.add(now)}
      WHERE job = ${p.add(this.job)} AND pass_id = ${p.add(pass.passId)} AND list_done = 0
      RETURNING next_page - 1 AS page`;
    const rows = await this.uow.run((m) => returningRows<{ page: number | string }>(m, sql, p.values));
    return rows.length === 1 ? Number(rows[0].page) : null;
  }

  /** A page taken is settled; `state` 'done' when it was the last one, 'failed' when the list failed. */
  async pageSettled(pass: Pass, state: ListState): Promise<void> {
    const p = new SqlParams(this.uow.kind);
    const code = LIST_STATES.indexOf(state);
    const sql = `UPDATE reconciliation_passes
      SET pages_in_flight = pages_in_flight - 1,
          list_done = CASE WHEN list_done = 0 THEN ${p.add(code)} ELSE list_done END
      WHERE job = ${p.add(this.job)} AND pass_id = ${p.add(pass.passId)}`;
    await this.uow.run((m) => m.query(sql, p.values));
  }

  /** Where the list stands: 'listing' while pages are still handed out or being settled. */
  async listState(pass: Pass): Promise<ListState> {
    const row = await this.uow.run((m) => m.findOne(ReconciliationPassEntity, { where: { job: this.job } }));
    if (!row || row.passId !== pass.passId) return 'failed'; // replaced: leave the rest to the new pass
    return row.pagesInFlight > 0 ? 'listing' : (LIST_STATES[row.listDone] ?? 'failed');
  }

  async heartbeat(pass: Pass, now: Date): Promise<void> {
    await this.uow.run((m) =>
      m.update(ReconciliationPassEntity, { job: this.job, passId: pass.passId }, { heartbeatAt: now }),
    );
  }

  /** Nothing is left to claim: a replica starting now opens a new pass. */
  async finish(pass: Pass, now: Date): Promise<void> {
    await this.uow.run((m) =>
      m
        .createQueryBuilder()
        .update(ReconciliationPassEntity)
        .set({ finishedAt: now, heartbeatAt: now })
        .where('job = :job AND pass_id = :passId AND finished_at IS NULL', {
          job: this.job,
          passId: pass.passId,
        })
        .execute(),
    );
  }
}
