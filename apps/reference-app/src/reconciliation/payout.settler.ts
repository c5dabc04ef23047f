import type { Logger } from '@nestjs/common';
import {
  decidePayoutStatusChange,
  type PartnerPayout,
  type PartnerWebhookDispatcher,
} from '@partner-payments/nestjs';
import type { PayoutEntity } from '../database/entities';
import type { UnitOfWork } from '../database/unit-of-work.service';
import type { PayoutProjection } from '../payouts/payout.projection';
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
 * Applies what the partner says about a batch of claimed payouts, with the same rule as every other
 * writer (decidePayoutStatusChange: never backwards, FAILED and CANCELLED final). A change goes out
 * as the unified payout-status event the webhook path emits (source 'reconciliation'), so the
 * projection and any other handler see one stream. The batch is one transaction (one commit, one
 * fsync on SQLite) with a savepoint per payout: a handler that throws for one payout rolls back that
 * payout only, which is counted and backed off, never thrown (it must not stall the batch nor, first
 * in line again, every later pass). The projection starts from the claimed rows (withKnownRows).
 */
export class PayoutSettler {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly projection: PayoutProjection,
    private readonly dispatcher: PartnerWebhookDispatcher,
    private readonly claims: PayoutClaims,
    private readonly logger: Logger,
  ) {}

  async settle(sightings: readonly Sighting[], now: Date): Promise<Map<string, SettleOutcome>> {
    const outcomes = new Map<string, SettleOutcome>();
    const failures: Array<{ row: PayoutEntity; error: unknown }> = [];
    try {
      await this.projection.withKnownRows(
        sightings.map((s) => s.row),
        () =>
          this.uow.transaction(async (m) => {
            failures.length = 0;
            for (const s of sightings) {
              if (!this.worthApplying(s)) {
                outcomes.set(s.row.payoutId, 'unchanged');
                continue;
              }
              await m.query('SAVEPOINT reconcile_payout');
              try {
                await this.publish(s);
                await m.query('RELEASE SAVEPOINT reconcile_payout');
                outcomes.set(s.row.payoutId, this.applies(s) ? 'changed' : 'unchanged');
              } catch (error) {
                await m.query('ROLLBACK TO SAVEPOINT reconcile_payout');
                await m.query('RELEASE SAVEPOINT reconcile_payout');
                failures.push({ row: s.row, error });
              }
            }
            const ok = sightings.filter((s) => !failures.some((f) => f.row === s.row));
            await this.claims.checked(
              ok.map((s) => s.row),
              ok.filter((s) => s.byGet).map((s) => s.row.payoutId),
              new Date(),
            );
          }),
      );
    } catch (error) {
      // The batch itself failed (its commit, the database): every payout in it is retried later.
      failures.length = 0;
      for (const s of sightings) failures.push({ row: s.row, error });
    }
    for (const { row, error } of failures) {
      outcomes.set(row.payoutId, 'failed');
      await this.claims.backOff(row, now);
      const message = error instanceof Error ? error.message : String(error);
      this.logger.warn(
        `payout ${row.payoutId}: apply failed (${row.checkFailures + 1} in a row): ${message}`,
      );
    }
    for (const s of sightings)
      if (outcomes.get(s.row.payoutId) === 'changed')
        this.logger.debug(
          `payout ${s.row.payoutId}: ${s.row.status} -> ${s.seen.status} (from the ${s.byGet ? 'resource' : 'list'})`,
        );
    return outcomes;
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

  private publish({ row, seen }: Sighting): Promise<void> {
    return this.dispatcher.publishPayoutStatus({
      payoutId: row.payoutId,
      status: seen.status,
      previousStatus: row.status,
      rawStatus: seen.rawStatus,
      source: 'reconciliation',
      eventName: null,
      eventId: null,
      occurredAt: new Date().toISOString(),
      referenceNumber: seen.referenceNumber,
      errorCode: seen.errorCode,
    });
  }
}
