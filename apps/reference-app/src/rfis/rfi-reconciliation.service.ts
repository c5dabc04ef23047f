import { Injectable } from '@nestjs/common';
import { PartnerRfisService } from '@partner-payments/nestjs';
import { PartnerJobLockService } from '@partner-payments/typeorm';
import { RfiProjection } from './rfi-projection.service';
import { RfiSync } from './rfi-sync.service';

export const RFI_RECONCILIATION_JOB = 'rfi-reconciliation';

export interface RfiReconciliationSummary {
  /** false when another replica held the lock: this pass did nothing. */
  ran: boolean;
  /** Entries of the partner's list read. */
  listed: number;
  /** RFIs the app did not hold (their rfi.created never arrived). */
  missing: number;
  /** RFIs whose status, deadline or blocking differed from the app's. */
  changed: number;
  /** RFIs read one by one with their items. */
  read: number;
}

/**
 * The partner does not re-send a lost delivery (spec 6.1.4) and `rfi.*` events are newer than the
 * version the contract names (evidence §9), so the projection is also kept from the resource: a
 * pass reads the partner's RFI list (GET /v1/rfis, every page: RFIs are global to the integrator,
 * evidence §7), records every entry, then reads with its items every RFI that is new, changed,
 * marked stale by an event, or open here but absent from the list (closed or withdrawn since).
 * One pass at a time across replicas (PartnerJobLockService).
 */
@Injectable()
export class RfiReconciliationService {
  constructor(
    private readonly locks: PartnerJobLockService,
    private readonly rfis: PartnerRfisService,
    private readonly projection: RfiProjection,
    private readonly sync: RfiSync,
  ) {}

  async runOnce(options: { tick?: Date } = {}): Promise<RfiReconciliationSummary> {
    const run = await this.locks.runExclusive(RFI_RECONCILIATION_JOB, (signal) => this.pass(signal), options);
    return run.ran ? run.result : { ran: false, listed: 0, missing: 0, changed: 0, read: 0 };
  }

  private async pass(signal: AbortSignal): Promise<RfiReconciliationSummary> {
    const summary: RfiReconciliationSummary = { ran: true, listed: 0, missing: 0, changed: 0, read: 0 };
    const listed = new Set<string>();
    const toRead = new Set<string>();
    // evidence §7: list entries may lack items; the list answers at most 100 a page.
    for await (const entry of this.rfis.iterate({ limit: 100 })) {
      signal.throwIfAborted(); // the job lock was lost: another replica may be on it
      if (typeof entry.id !== 'string' || entry.id === '' || entry.id.length > 64) continue;
      const id = entry.id.toLowerCase();
      summary.listed += 1;
      listed.add(id);
      const outcome = await this.projection.applyRead(entry, 'reconciliation');
      if (outcome === 'created') summary.missing += 1;
      if (outcome === 'changed') summary.changed += 1;
      if (outcome !== 'unchanged') toRead.add(id);
    }
    const { stale, open } = await this.projection.idsToRead();
    for (const id of stale) toRead.add(id);
    for (const id of open) if (!listed.has(id)) toRead.add(id);
    for (const id of toRead) {
      signal.throwIfAborted();
      await this.sync.read(id, 'reconciliation');
      summary.read += 1;
    }
    return summary;
  }
}
