/**
 * The list part of a reconciliation pass: runs of pages of GET /v1/payouts?from_date (handed out to
 * the replicas taking part by the pass store), each page's payouts claimed and settled from their
 * list rows, with a detail read only where the row cannot settle the status (list-row.policy.ts).
 */
import type { Logger } from '@nestjs/common';
import type { PartnerPayout, PartnerPayoutsService } from '@partner-payments/nestjs';
import { detailReadsFor, wantsResource } from './list-row.policy';
import { LIST_PAGE_SIZE, LIST_PAGES_PER_TAKE } from './list-window.policy';
import type { PayoutClaims } from './payout-claims.store';
import { claimStamp, readPayouts } from './payout-reads.util';
import type { PayoutSettler, Sighting } from './payout-settler.service';
import type { ListState, Pass, ReconciliationPassStore } from './reconciliation-pass.store';
import { countOutcomes, type ReconciliationSummary } from './reconciliation.types';

/** How long a replica done with its pages waits for the others' pages before reading the rest by GET. */
const LIST_SETTLE_WAIT_MS = 60_000;

export class PayoutListPhase {
  constructor(
    private readonly passes: ReconciliationPassStore,
    private readonly claims: PayoutClaims,
    private readonly settler: PayoutSettler,
    private readonly partnerPayouts: PartnerPayoutsService,
    private readonly concurrency: number,
    private readonly logger: Logger,
  ) {}

  /** Runs of pages of the list, one run at a time, until the end (or a failure) is seen by anyone. */
  async run(pass: Pass, summary: ReconciliationSummary): Promise<void> {
    for (;;) {
      const first = await this.passes.takePages(pass, new Date(), LIST_PAGES_PER_TAKE);
      if (first === null) return;
      let state: ListState = 'listing';
      let page = first;
      try {
        const listed: PartnerPayout[] = [];
        try {
          for (; page < first + LIST_PAGES_PER_TAKE && state === 'listing'; page++) {
            const result = await this.partnerPayouts.list({
              from_date: pass.fromDate!,
              page,
              limit: LIST_PAGE_SIZE,
            });
            summary.pages += 1;
            listed.push(...result.payouts);
            const last =
              result.payouts.length < LIST_PAGE_SIZE ||
              (result.totalPages !== null && page >= result.totalPages);
            if (last) state = 'done';
          }
        } finally {
          if (listed.length > 0) await this.settleListed(pass, listed, summary); // even after a failure
        }
      } catch (error) {
        // The list failed even after the client's retries. Reading every payout by GET instead would
        // spend the whole rate budget: the payouts the list would have shown wait for the next pass.
        state = 'failed';
        this.logger.error(
          `payout list page ${page} failed, the list part of this pass stops: ${(error as Error).message}`,
        );
      } finally {
        await this.passes.pagesSettled(pass, state, LIST_PAGES_PER_TAKE);
      }
      if (state !== 'listing') return;
    }
  }

  /** Claims the listed payouts this pass still has to check, and settles them from their rows. */
  private async settleListed(
    pass: Pass,
    listed: PartnerPayout[],
    summary: ReconciliationSummary,
  ): Promise<void> {
    const rows = await this.claims.claimListed(
      pass,
      listed.map((p) => p.payoutId),
      claimStamp(pass),
    );
    if (rows.length === 0) return;
    summary.batches += 1;
    const byId = new Map(listed.map((p) => [p.payoutId, p]));
    const wanted = rows.flatMap((row) => {
      const need = wantsResource(row, byId.get(row.payoutId)!);
      return need ? [{ row, need }] : [];
    });
    const toRead = detailReadsFor(wanted, rows.length);
    const resources = await readPayouts(toRead, this.partnerPayouts, this.concurrency, summary);
    const sightings: Sighting[] = rows.map((row) => {
      const resource = resources.get(row.payoutId);
      // A failed detail read changes nothing: the list row still settles the status.
      return resource instanceof Error || resource === undefined
        ? { row, seen: byId.get(row.payoutId)!, byGet: false }
        : { row, seen: resource, byGet: true };
    });
    countOutcomes(summary, await this.settler.settle(sightings, new Date()));
  }

  /** Waits (bounded) until every page handed out is settled, so no payout is read by GET needlessly. */
  async settled(pass: Pass): Promise<ListState> {
    const deadline = Date.now() + LIST_SETTLE_WAIT_MS;
    for (;;) {
      const state = await this.passes.listState(pass);
      if (state !== 'listing' || Date.now() > deadline) return state;
      await new Promise((r) => setTimeout(r, 100));
    }
  }
}
