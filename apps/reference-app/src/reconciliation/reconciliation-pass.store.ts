import { randomUUID } from 'node:crypto';
import { ReconciliationPassEntity } from './reconciliation-pass.entity';
import { insertIfAbsent, returningRows, preparedQuery, SqlParams } from '@partner-payments/typeorm/sql';
import { TICK_SKEW_MS, type PartnerUnitOfWork } from '@partner-payments/typeorm';
import { PassParticipants, type PassHolder } from './pass-participants.store';

/** `list_done`: 0 while pages are handed out, 1 once the end was seen, 2 when the list failed. */
export type ListState = 'listing' | 'done' | 'failed';
const LIST_STATES: ListState[] = ['listing', 'done', 'failed'];

/** Where a pass starts reading the list (chooseListWindow); null: every payout read by GET. */
type ListStart = { fromDate: string | null };

/** A replica's part in a pass: leave it when done (or failed), so the pass can be told abandoned. */
export interface Participation {
  pass: Pass;
  leave(): Promise<void>;
}

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
 * - pages: `next_page = next_page + n ... RETURNING`, each run of n pages of the partner's list to
 *   one replica;
 * - `pages_in_flight` says when every page handed out has been settled, so single reads start only
 *   after the list could no longer settle the payout.
 */
export class ReconciliationPassStore {
  private readonly participants: PassParticipants;

  constructor(
    private readonly uow: PartnerUnitOfWork,
    private readonly job: string,
  ) {
    this.participants = new PassParticipants(uow, job);
  }

  /**
   * Joins the live pass or opens one, and answers this replica's participation (leave it when done).
   * A pass is live while one of its participants still runs (PassParticipants); one whose replicas
   * all died is replaced at once, so their claimed payouts are checked again. With a cron `tick`, a
   * pass already opened for that tick (within TICK_SKEW_MS, any replica) is joined if still live and
   * not repeated if finished: null. `window` is used (a function: called) only when this call opens
   * the pass: a replica joining one pays nothing for it.
   */
  async joinOrOpen(
    now: Date,
    tick: Date | null,
    window: ListStart | (() => Promise<ListStart>),
  ): Promise<Participation | null> {
    await this.uow.run((m) =>
      insertIfAbsent(m, this.uow.kind, 'reconciliation_passes', 'job', {
        job: this.job,
        next_page: 1,
        pages_in_flight: 0,
        list_done: 0,
      }),
    );
    const holder = await this.participants.enter();
    try {
      for (let attempt = 0; attempt < 5; attempt++) {
        const row = await this.read();
        const open = row.passId !== null && row.finishedAt === null;
        const sameTick = !!tick && !!row.tick && row.tick.getTime() >= tick.getTime() - TICK_SKEW_MS;
        if (sameTick && !open) {
          await holder.release();
          return null; // this tick's pass already ran
        }
        if (open && (await this.participants.anyAlive(row.passId as string))) {
          await this.participants.register(row.passId as string, holder);
          const joined = await this.read();
          if (joined.passId === row.passId && joined.finishedAt === null)
            return this.participation(joined, holder, false);
          await this.participants.leave(row.passId as string, holder); // it ended meanwhile
          continue;
        }
        // None yet, finished, or abandoned (nobody in it runs): a new one in its place.
        const { fromDate } = typeof window === 'function' ? await window() : window;
        const opened = await this.open(row.passId, holder, now, tick, fromDate);
        if (opened) return this.participation(await this.read(), holder, true);
      }
      throw new Error('could not join or open a reconciliation pass (five races lost in a row)');
    } catch (error) {
      await holder.release();
      throw error;
    }
  }

  /** Replaces the pass `previous` (compare and swap) and enters it, in one transaction. */
  private async open(
    previous: string | null,
    holder: PassHolder,
    now: Date,
    tick: Date | null,
    fromDate: string | null,
  ): Promise<boolean> {
    const passId = randomUUID();
    const p = new SqlParams(this.uow.kind);
    const same = this.uow.kind === 'postgres' ? 'IS NOT DISTINCT FROM' : 'IS';
    // `previous` was read before its liveness was checked: it may have finished since, for this very
    // tick, its participants leaving right after. Replacing it then would run the tick's pass twice,
    // so the swap also refuses a finished pass of the same tick (the caller re-reads and stops).
    // (Parameters are added in the order they appear: SQLite's are positional.)
    const sql = `UPDATE reconciliation_passes
      SET pass_id = ${p.add(passId)}, tick = ${p.add(tick)}, started_at = ${p.add(now)},
          heartbeat_at = ${p.add(now)}, finished_at = NULL, from_date = ${p.add(fromDate)},
          next_page = 1, pages_in_flight = 0, list_done = 0
      WHERE job = ${p.add(this.job)} AND pass_id ${same} ${p.add(previous)}
      ${tick ? `AND (finished_at IS NULL OR tick IS NULL OR tick < ${p.add(new Date(tick.getTime() - TICK_SKEW_MS))})` : ''}
      RETURNING pass_id`;
    return this.uow.transaction(async (m) => {
      if ((await returningRows(m, sql, p.values)).length === 0) return false;
      await this.participants.forgetOthers(passId);
      await this.participants.register(passId, holder);
      return true;
    });
  }

  private read(): Promise<ReconciliationPassEntity> {
    return this.uow.run((m) => m.findOneOrFail(ReconciliationPassEntity, { where: { job: this.job } }));
  }

  private participation(row: ReconciliationPassEntity, holder: PassHolder, opened: boolean): Participation {
    const pass: Pass = {
      passId: row.passId as string,
      startedAt: row.startedAt as Date,
      fromDate: row.fromDate,
      // The list's first day is a day of margin before the first day it was chosen for.
      readBefore: row.fromDate ? new Date(Date.parse(`${row.fromDate}T00:00:00.000Z`) + 86_400_000) : null,
      opened,
    };
    return {
      pass,
      leave: async () => {
        try {
          await this.participants.leave(pass.passId, holder);
        } finally {
          await holder.release();
        }
      },
    };
  }

  /**
   * The next `count` pages of the list for this replica (answers the first), or null once the list
   * is done (or failed). This and pagesSettled run once per run of pages: named statements
   * (planned once per connection).
   */
  async takePages(pass: Pass, now: Date, count: number): Promise<number | null> {
    const p = new SqlParams(this.uow.kind);
    const sql = `UPDATE reconciliation_passes
      SET next_page = next_page + ${p.add(count)}, pages_in_flight = pages_in_flight + ${p.add(count)},
          heartbeat_at = ${p.add(now)}
      WHERE job = ${p.add(this.job)} AND pass_id = ${p.add(pass.passId)} AND list_done = 0
      RETURNING next_page - ${p.add(count)} AS page`;
    const rows = await this.uow.run((m) => preparedQuery(m, 'reconcile_take_pages', sql, p.values));
    return rows.length === 1 ? Number(rows[0].page) : null;
  }

  /** `count` pages taken are settled; `state` 'done' when the last one was among them, 'failed' when the list failed. */
  async pagesSettled(pass: Pass, state: ListState, count: number): Promise<void> {
    const p = new SqlParams(this.uow.kind);
    const code = LIST_STATES.indexOf(state);
    const sql = `UPDATE reconciliation_passes
      SET pages_in_flight = pages_in_flight - ${p.add(count)},
          list_done = CASE WHEN list_done = 0 THEN ${p.add(code)} ELSE list_done END
      WHERE job = ${p.add(this.job)} AND pass_id = ${p.add(pass.passId)}`;
    await this.uow.run((m) => preparedQuery(m, 'reconcile_pages_settled', sql, p.values));
  }

  /** Where the list stands: 'listing' while pages are still handed out or being settled. */
  async listState(pass: Pass): Promise<ListState> {
    const row = await this.uow.run((m) => m.findOne(ReconciliationPassEntity, { where: { job: this.job } }));
    if (!row || row.passId !== pass.passId) return 'failed'; // replaced: leave the rest to the new pass
    return row.pagesInFlight > 0 ? 'listing' : (LIST_STATES[row.listDone] ?? 'failed');
  }

  /** Whether `pass` is still the job's open pass (not replaced by a replica that found it abandoned). */
  async isCurrent(pass: Pass): Promise<boolean> {
    const row = await this.read();
    return row.passId === pass.passId && row.finishedAt === null;
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
