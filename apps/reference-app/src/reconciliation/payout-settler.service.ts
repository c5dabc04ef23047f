import type { Logger } from '@nestjs/common';
import type { PartnerPayout } from '@partner-payments/nestjs';
import { decidePayoutStatusChange } from '@partner-payments/nestjs/models';
import type { PayoutEntity } from '../payouts/payout.entity';
import { type PartnerUnitOfWork } from '@partner-payments/typeorm';
import { withLogFields } from '../observability/log-context.util';
import type { PayoutProjection } from '../payouts/payout-projection.service';
import type { PayoutClaims } from './payout-claims.store';

/** What the partner says about one claimed payout: its list row, or its resource (GET). */
export interface Sighting {
  row: PayoutEntity;
  seen: PartnerPayout;
  /** true when `seen` is the resource read by GET (it then carries error_code and reference_number). */
  byGet: boolean;
}

export type SettleOutcome = 'changed' | 'unchanged' | 'failed';

/**
 * 'changed' (drift: a status no webhook told us) only when the projection moved the stored status,
 * not when the sighting differs from the claimed row: a webhook may have moved the row since the
 * claim, and then the sighting changes nothing. (Failed payouts are marked by the caller.)
 */
const changedOrNot = (changed: ReadonlySet<string>, s: Sighting): SettleOutcome =>
  changed.has(s.row.payoutId) ? 'changed' : 'unchanged';

/**
 * Applies what the partner says about a batch of claimed payouts to the payout projection directly,
 * with the same rule as every other writer (decidePayoutStatusChange: never backwards, FAILED and
 * CANCELLED final; optimistic version checks against a webhook writing the same row). The batch is
 * one transaction (one commit, one fsync on SQLite); the projection starts from the claimed rows
 * and writes them all in one statement (withKnownRows, deferWrites). If anything in it throws, the
 * batch is redone with a savepoint per payout: a write that fails for one payout rolls back that
 * payout only, which is counted and backed off, never thrown (it must not stall the batch nor,
 * first in line again, every later pass).
 */
export class PayoutSettler {
  constructor(
    private readonly uow: PartnerUnitOfWork,
    private readonly projection: PayoutProjection,
    private readonly claims: PayoutClaims,
    private readonly logger: Logger,
  ) {}

  async settle(sightings: readonly Sighting[], now: Date): Promise<Map<string, SettleOutcome>> {
    const outcomes = new Map<string, SettleOutcome>();
    if (sightings.every((s) => !this.needsWrite(s))) {
      // The claim already recorded the check: no write, so no transaction (most pages of a pass
      // hold payouts that did not move, and BEGIN + COMMIT are two round trips).
      for (const s of sightings) outcomes.set(s.row.payoutId, 'unchanged');
      return outcomes;
    }
    let failures: Array<{ row: PayoutEntity; error: unknown }> = [];
    try {
      await this.inOneTransaction(sightings, outcomes);
    } catch {
      // A payout's write threw (or the batch write failed): again, one savepoint per payout, so
      // only the payouts that fail are rolled back.
      outcomes.clear();
      try {
        failures = await this.payoutByPayout(sightings, outcomes);
      } catch (error) {
        // The batch itself failed (its commit, the database): every payout in it is retried later.
        failures = sightings.map((s) => ({ row: s.row, error }));
      }
    }
    for (const { row, error } of failures) {
      outcomes.set(row.payoutId, 'failed');
      await this.claims.backOff(row, now);
      const message = error instanceof Error ? error.message : String(error);
      withLogFields({ payout_id: row.payoutId }, () =>
        this.logger.warn(
          `payout ${row.payoutId}: apply failed (${row.checkFailures + 1} in a row): ${message}`,
        ),
      );
    }
    for (const s of sightings)
      if (outcomes.get(s.row.payoutId) === 'changed')
        withLogFields({ payout_id: s.row.payoutId }, () =>
          this.logger.debug(
            `payout ${s.row.payoutId}: ${s.row.status} -> ${s.seen.status} (from the ${s.byGet ? 'resource' : 'list'})`,
          ),
        );
    return outcomes;
  }

  /** The usual case: every sighting applied, the projection's writes deferred and made in one statement. */
  private async inOneTransaction(
    sightings: readonly Sighting[],
    outcomes: Map<string, SettleOutcome>,
  ): Promise<void> {
    const changed = new Set<string>();
    await this.projection.withKnownRows(
      sightings.map((s) => s.row),
      () =>
        this.uow.transaction(async () => {
          for (const s of sightings) if (this.worthApplying(s)) await this.applySighting(s);
          await this.projection.flushDeferred();
          await this.checked(sightings);
        }),
      { deferWrites: true, changed },
    );
    for (const s of sightings) outcomes.set(s.row.payoutId, changedOrNot(changed, s));
  }

  /** After a failure: a savepoint per payout; answers the payouts whose writes failed. */
  private async payoutByPayout(
    sightings: readonly Sighting[],
    outcomes: Map<string, SettleOutcome>,
  ): Promise<Array<{ row: PayoutEntity; error: unknown }>> {
    const failures: Array<{ row: PayoutEntity; error: unknown }> = [];
    const changed = new Set<string>();
    await this.projection.withKnownRows(
      sightings.map((s) => s.row),
      () =>
        this.uow.transaction(async (m) => {
          for (const s of sightings) {
            if (!this.worthApplying(s)) continue;
            await m.query('SAVEPOINT reconcile_payout');
            try {
              await this.applySighting(s);
              await m.query('RELEASE SAVEPOINT reconcile_payout');
            } catch (error) {
              await m.query('ROLLBACK TO SAVEPOINT reconcile_payout');
              await m.query('RELEASE SAVEPOINT reconcile_payout');
              failures.push({ row: s.row, error });
            }
          }
          await this.checked(sightings.filter((s) => !failures.some((f) => f.row === s.row)));
        }),
      { changed },
    );
    for (const s of sightings) outcomes.set(s.row.payoutId, changedOrNot(changed, s));
    return failures;
  }

  /** Bookkeeping of the payouts checked fine, in the batch's transaction (taken after the status writes). */
  private checked(ok: readonly Sighting[]): Promise<void> {
    return this.claims.checked(
      ok.map((s) => s.row),
      ok.filter((s) => s.byGet).map((s) => s.row.payoutId),
      new Date(),
    );
  }

  /** Whether settling `s` writes anything: a sighting to apply, or the bookkeeping of checked(). */
  private needsWrite(s: Sighting): boolean {
    return this.worthApplying(s) || s.byGet || s.row.checkFailures > 0;
  }

  private applies(s: Sighting): boolean {
    return decidePayoutStatusChange(s.row.status, s.seen.status).apply;
  }

  /** A new status, or details only the resource carries (spec 6.4.4: reference_number, error_code). */
  private worthApplying(s: Sighting): boolean {
    const { seen, row } = s;
    return (
      this.applies(s) ||
      (seen.referenceNumber !== null && seen.referenceNumber !== row.referenceNumber) ||
      (seen.errorCode !== null && seen.errorCode !== row.errorCode)
    );
  }

  /** In a log scope of its own: the projection's lines and span carry this payout's id. */
  private async applySighting({ row, seen }: Sighting): Promise<void> {
    await withLogFields({ payout_id: row.payoutId }, () =>
      this.projection.apply({
        payoutId: row.payoutId,
        status: seen.status,
        source: 'reconciliation',
        referenceNumber: seen.referenceNumber,
        errorCode: seen.errorCode,
      }),
    );
  }
}
