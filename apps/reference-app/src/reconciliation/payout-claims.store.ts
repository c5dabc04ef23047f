import { In } from 'typeorm';
import { PayoutEntity } from '../payouts/payout.entity';
import { hydrateRow } from '../database/hydrate.util';
import { preparedQuery, SqlParams } from '@partner-payments/typeorm/sql';
import { type PartnerUnitOfWork } from '@partner-payments/typeorm';
import type { PayoutDay } from './list-window.policy';
import { reconcileRetryAt } from './reconcile-backoff.policy';
import type { Pass } from './reconciliation-pass.store';

const DAY_MS = 86_400_000;
const startOfUtcDay = (t: Date): Date => new Date(Math.floor(t.getTime() / DAY_MS) * DAY_MS);

/** The oldest-checked first (never-checked first of all), then by id for a stable order. */
const OLDEST_CHECKED_FIRST =
  'CASE WHEN last_checked_at IS NULL THEN 0 ELSE 1 END, last_checked_at, payout_id';

/**
 * Which payouts a pass checks, and the claims that make each one checked once per pass across
 * replicas. A claim is one `UPDATE payouts SET last_checked_at = now ... RETURNING *` over rows that
 * still qualify: a row another replica claimed first no longer qualifies (its last_checked_at is
 * now at or after the pass's start), so claims never overlap. On PostgreSQL the rows are picked by
 * `FOR UPDATE SKIP LOCKED`, so two replicas take different rows instead of queueing on the same
 * ones; on SQLite one writer at a time gives the same guarantee. Scheduling columns only: no
 * version bump, so a claim never conflicts with a status write.
 */
export class PayoutClaims {
  constructor(
    private readonly uow: PartnerUnitOfWork,
    private readonly completedWindowHours: number,
    private readonly returnHorizonDays = 0,
  ) {}

  /** Payouts to check, as the pass starting at `passStart` sees them: the SQL of the rule. */
  private qualifies(p: SqlParams, passStart: Date): string {
    const completedSince = new Date(passStart.getTime() - this.completedWindowHours * 3_600_000);
    // COMPLETED is not strictly final: a bank return can still fail it (provider-facts). A failure
    // learnt without its error_code (spec 6.4.4: only on the resource) is read by GET once it is
    // FAILED (list-row.policy).
    // Past the window a return is rarer but still possible (spec 3.4, evidence §6 give COMPLETED no
    // end; a lost payout.returned is never re-sent, spec 6.1.4; an unauthorized ACH debit can be
    // returned up to 60 days on): checked once per UTC day up to RECONCILE_RETURN_HORIZON_DAYS after
    // the last change. Due when last checked before today's UTC midnight, so all of them fall due
    // together in the first pass of the day, and the list prices them at a page per 100 payouts of
    // the horizon. (24 hours after each one's own check spread them over the day: a few due per
    // pass, one GET each, about 57 GETs a day per payout a day at the minute cron; review repro.)
    // Placeholders are taken in the order they appear in the text (SQLite's `?` are positional).
    const inWindow = `(status = 'COMPLETED' AND updated_at >= ${p.add(completedSince)})`;
    const horizon =
      this.returnHorizonDays > 0
        ? `OR (status = 'COMPLETED' AND updated_at >= ${p.add(new Date(passStart.getTime() - this.returnHorizonDays * DAY_MS))}
          AND (last_checked_at IS NULL OR last_checked_at < ${p.add(startOfUtcDay(passStart))}))`
        : '';
    return `((status NOT IN ('COMPLETED', 'FAILED', 'CANCELLED')
        OR ${inWindow}
        ${horizon}
        OR (status = 'FAILED' AND error_code IS NULL
          AND (resource_read_at IS NULL OR resource_read_at < updated_at)))
      AND created_at < ${p.add(passStart)}
      AND (last_checked_at IS NULL OR last_checked_at < ${p.add(passStart)})
      AND (next_check_at IS NULL OR next_check_at <= ${p.add(passStart)}))`;
  }

  /** Payouts and candidates per day since the day before the oldest candidate (chooseListWindow). */
  async days(now: Date): Promise<PayoutDay[]> {
    const p = new SqlParams(this.uow.kind);
    const pg = this.uow.kind === 'postgres';
    const day = pg ? `to_char(created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD')` : 'substr(created_at, 1, 10)';
    const candidate = this.qualifies(p, now);
    const oldest = `(SELECT MIN(created_at) FROM payouts WHERE ${this.qualifies(p, now)})`;
    const sql = `SELECT ${day} AS day, COUNT(*) AS payouts, SUM(CASE WHEN ${candidate} THEN 1 ELSE 0 END) AS candidates
      FROM payouts
      WHERE created_at >= ${pg ? `${oldest} - INTERVAL '1 day'` : `datetime(${oldest}, '-1 day')`}
      GROUP BY 1 ORDER BY 1`;
    const rows: Array<{ day: string; payouts: number | string; candidates: number | string }> =
      await this.uow.run((m) => m.query(sql, p.values));
    return rows.map((r) => ({ day: r.day, payouts: Number(r.payouts), candidates: Number(r.candidates) }));
  }

  /** Claims those of `payoutIds` (one page of the partner's list) that this pass still has to check. */
  async claimListed(pass: Pass, payoutIds: readonly string[], now: Date): Promise<PayoutEntity[]> {
    if (payoutIds.length === 0) return [];
    const p = new SqlParams(this.uow.kind);
    const set = `UPDATE payouts SET last_checked_at = ${p.add(now)} WHERE `;
    const sql =
      this.uow.kind === 'postgres'
        ? `${set}payout_id IN (SELECT payout_id FROM payouts WHERE ${p.inList('payout_id', payoutIds)}
            AND ${this.qualifies(p, pass.startedAt)} FOR UPDATE SKIP LOCKED) RETURNING *`
        : `${set}${p.inList('payout_id', payoutIds)} AND ${this.qualifies(p, pass.startedAt)} RETURNING *`;
    return this.claim('reconcile_claim_listed', sql, p);
  }

  /**
   * Claims up to `limit` payouts the pass still has to check, oldest-checked first. `createdBefore`
   * restricts the claim to payouts the list was never going to show (after the list failed).
   */
  async claimNext(pass: Pass, limit: number, now: Date, createdBefore: Date | null): Promise<PayoutEntity[]> {
    const p = new SqlParams(this.uow.kind);
    const set = `UPDATE payouts SET last_checked_at = ${p.add(now)} WHERE payout_id IN (`;
    const pick = `SELECT payout_id FROM payouts WHERE ${this.qualifies(p, pass.startedAt)}
      ${createdBefore ? `AND created_at < ${p.add(createdBefore)}` : ''}
      ORDER BY ${OLDEST_CHECKED_FIRST} LIMIT ${p.add(limit)}`;
    const lock = this.uow.kind === 'postgres' ? ' FOR UPDATE SKIP LOCKED' : '';
    const name = createdBefore ? 'reconcile_claim_next_before' : 'reconcile_claim_next';
    return this.claim(name, `${set}${pick}${lock}) RETURNING *`, p);
  }

  /**
   * A claim as a named statement (`name` always with the same text: the payout ids are one array
   * parameter): PostgreSQL parses and plans it once per connection instead of once per page,
   * where planning the claim costs about as much as running it.
   */
  private async claim(name: string, sql: string, p: SqlParams): Promise<PayoutEntity[]> {
    return this.uow.run(async (m) => {
      const rows = await preparedQuery(m, name, sql, p.values);
      return rows.map((raw) => hydrateRow(m, PayoutEntity, raw));
    });
  }

  /** A payout whose check failed: counted and backed off (30 s doubling to 30 min), never thrown. */
  async backOff(row: PayoutEntity, now: Date): Promise<void> {
    const failures = row.checkFailures + 1;
    await this.uow.run((m) =>
      m.update(
        PayoutEntity,
        { payoutId: row.payoutId },
        { checkFailures: failures, nextCheckAt: reconcileRetryAt(failures, now) },
      ),
    );
  }

  /**
   * Checked fine: failures cleared on the rows that had some; resource_read_at on those read by GET.
   * `now` must be taken after the status writes, so resource_read_at >= updated_at says "read since".
   */
  async checked(rows: readonly PayoutEntity[], readByGet: readonly string[], now: Date): Promise<void> {
    const recovered = rows.filter((r) => r.checkFailures > 0).map((r) => r.payoutId);
    await this.uow.run(async (m) => {
      if (recovered.length > 0)
        await m.update(PayoutEntity, { payoutId: In(recovered) }, { checkFailures: 0, nextCheckAt: null });
      if (readByGet.length > 0)
        await m.update(PayoutEntity, { payoutId: In([...readByGet]) }, { resourceReadAt: now });
    });
  }
}
