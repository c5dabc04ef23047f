import { Injectable } from '@nestjs/common';
import { PartnerUnitOfWork } from '@partner-payments/typeorm';
import { Gauge } from 'prom-client';
import { In } from 'typeorm';
import { AppMetrics } from '../observability/app-metrics.service';
import { OPEN_RFI_STATUSES } from './rfi-status.policy';
import { RfiEntity } from './rfi.entity';

interface RfiStats {
  open: number;
  blocking: number;
  overdue: number;
  oldestBlockingAgeSeconds: number;
}

/**
 * The RFI gauges, on the app's registry (GET /metrics), read from the projection at scrape time:
 * open RFIs, those blocking a payout or deposit, those past due_at (evidence §7: the deadline is
 * never extended; on expiry the RFI closes and what it blocks stays blocked), and the age of the
 * oldest open blocking one, which the PartnerRfiBlocking alert reads (docs/operations.md).
 */
@Injectable()
export class RfiMetrics {
  private pending: Promise<RfiStats | null> | null = null;

  constructor(
    metrics: AppMetrics,
    private readonly uow: PartnerUnitOfWork,
  ) {
    const gauge = (name: string, help: string, pick: (s: RfiStats) => number): void => {
      const g: Gauge = new Gauge({
        name,
        help,
        registers: [metrics.registry],
        collect: async () => {
          const stats = await this.stats();
          if (stats) g.set(pick(stats));
        },
      });
    };
    gauge(
      'partner_rfis_open',
      'Open RFIs (pending, answered) the app holds, read at scrape time',
      (s) => s.open,
    );
    gauge('partner_rfis_blocking', 'Open RFIs that hold a payout or a deposit', (s) => s.blocking);
    gauge('partner_rfis_overdue', 'Open RFIs past their due_at', (s) => s.overdue);
    gauge(
      'partner_rfi_blocking_oldest_age_seconds',
      'Age of the oldest open blocking RFI since it was opened, in seconds; 0 when none',
      (s) => s.oldestBlockingAgeSeconds,
    );
  }

  /** One read per scrape for the four gauges; the database down keeps their last values. */
  private stats(): Promise<RfiStats | null> {
    this.pending ??= this.read()
      .catch(() => null)
      .finally(() => (this.pending = null));
    return this.pending;
  }

  private async read(now = new Date()): Promise<RfiStats> {
    const rows = await this.uow.run((m) =>
      m.find(RfiEntity, {
        select: { blocking: true, dueAt: true, openedAt: true },
        where: { status: In([...OPEN_RFI_STATUSES]) },
      }),
    );
    let oldest = 0;
    for (const r of rows)
      if (r.blocking) oldest = Math.max(oldest, (now.getTime() - r.openedAt.getTime()) / 1000);
    return {
      open: rows.length,
      blocking: rows.filter((r) => r.blocking).length,
      overdue: rows.filter((r) => r.dueAt !== null && r.dueAt.getTime() < now.getTime()).length,
      oldestBlockingAgeSeconds: Math.max(0, oldest),
    };
  }
}
