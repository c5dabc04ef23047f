import { collectDefaultMetrics, Gauge, Registry } from 'prom-client';
import { counterOn, PartnerHookMetrics, type PartnerHooks } from './partner-hook-metrics.util';

/** What the inbox gauges read at scrape time (observability/inbox-stats.util.ts). */
export interface InboxStats {
  /** Entries per unfinished state: pending, failed, dead. */
  counts: Record<'pending' | 'failed' | 'dead', number>;
  /** Age of the oldest entry per unfinished state, in seconds; 0 when none. */
  oldestAgeSeconds: Record<'pending' | 'failed', number>;
}

/** What reconciliationPass records per job (the summaries' counters it is called with). */
const RECONCILIATION_RESULTS = {
  payouts: ['checked', 'changed', 'failed'],
  deposits: ['read', 'missing', 'changed'],
} as const;
const REDRIVE_OUTCOMES = ['created', 'rejected', 'retrying', 'needs_review'] as const;

/**
 * Every metric of the app, on a registry of its own (not prom-client's global one:
 * tests run several apps in one process). Fed by the library's hooks (onHttpEvent, onTokenEvent,
 * onRateLimitWait, onWebhookEvent, wired in app.module.ts), by the jobs' pass summaries, and, at
 * scrape time, by the inbox's own table. Labels are route templates, enumerations and known event
 * names only: never an id, an amount or a secret. docs/operations.md says what each one means.
 */
export class AppMetrics {
  readonly registry = new Registry();
  /** What the library's four hooks feed: the one channel the module reports through. */
  private readonly partner = new PartnerHookMetrics(this.registry);
  private counter<L extends string = never>(name: string, help: string, labelNames: readonly L[] = []) {
    return counterOn(this.registry, name, help, labelNames);
  }
  private readonly reconPasses = this.counter(
    'reconciliation_passes_total',
    'Reconciliation passes this replica ran, by job (payouts, deposits)',
    ['job'],
  );
  private readonly reconItems = this.counter(
    'reconciliation_items_total',
    'What reconciliation passes found, by job and result (checked, changed = drift, missing = drift, failed)',
    ['job', 'result'],
  );
  private readonly redrivePasses = this.counter(
    'payout_redrive_passes_total',
    'Outbox re-drive passes of POST /payouts this replica ran',
  );
  private readonly redrives = this.counter(
    'payout_redrive_requests_total',
    'Payout requests handled by the outbox re-drive, by outcome (created, rejected, retrying, needs_review)',
    ['outcome'],
  );
  private inboxStats: (() => Promise<InboxStats>) | null = null;

  constructor() {
    collectDefaultMetrics({ register: this.registry });
    const entries: Gauge<'state'> = new Gauge({
      name: 'partner_inbox_entries',
      help: 'Webhook inbox entries not processed, by state (pending, failed, dead), read at scrape time',
      labelNames: ['state'] as const,
      registers: [this.registry],
      collect: async () => {
        const stats = await this.readInbox();
        if (stats) for (const [state, n] of Object.entries(stats.counts)) entries.set({ state }, n);
      },
    });
    const oldest: Gauge<'state'> = new Gauge({
      name: 'partner_inbox_oldest_unprocessed_age_seconds',
      help: 'Age of the oldest unprocessed inbox entry by state (pending: never processed; failed: awaiting retry)',
      labelNames: ['state'] as const,
      registers: [this.registry],
      collect: async () => {
        const stats = await this.readInbox();
        if (stats)
          for (const [state, age] of Object.entries(stats.oldestAgeSeconds)) oldest.set({ state }, age);
      },
    });
    // Every series an alert rule reads exists from the first scrape, at 0: Prometheus's increase()
    // sees no increase in a series whose first sample already holds its count, so a burst that
    // created a series between two scrapes (30 deliveries refused while the database blipped, the
    // drift found by the first pass after a restart) would never fire its alert (docs/operations.md).
    for (const job of ['payouts', 'deposits']) this.reconPasses.labels(job).inc(0);
    for (const [job, results] of Object.entries(RECONCILIATION_RESULTS))
      for (const result of results) this.reconItems.labels({ job, result }).inc(0);
    for (const outcome of REDRIVE_OUTCOMES) this.redrives.labels(outcome).inc(0);
  }

  /** Where the inbox gauges read from; set once the database is up. */
  useInboxStats(read: () => Promise<InboxStats>): void {
    this.inboxStats = read;
  }

  /** One scrape reads the inbox once for both gauges (prom-client collects them one after the other). */
  private pendingRead: Promise<InboxStats | null> | null = null;
  private async readInbox(): Promise<InboxStats | null> {
    if (!this.inboxStats) return null;
    this.pendingRead ??= this.inboxStats()
      .catch(() => null) // the database down: the gauges keep their last values; readiness says why
      .finally(() => (this.pendingRead = null));
    return this.pendingRead;
  }

  /** The module options that feed these metrics (spread into PartnerPaymentsModule's options). */
  partnerHooks(): PartnerHooks {
    return this.partner.hooks();
  }

  /** A reconciliation pass that ran: `job` payouts (checked, changed, failed) or deposits (read, missing, changed). */
  reconciliationPass<S extends { ran: boolean }>(
    job: 'payouts' | 'deposits',
    summary: S,
    results: Array<keyof S & string>,
  ): void {
    if (!summary.ran) return;
    this.reconPasses.inc({ job });
    for (const result of results) {
      const n: unknown = summary[result];
      if (typeof n === 'number') this.reconItems.inc({ job, result }, n);
    }
  }

  /** An outbox re-drive pass that ran. */
  redrivePass(summary: {
    ran: boolean;
    created: number;
    rejected: number;
    retrying: number;
    needsReview: number;
  }): void {
    if (!summary.ran) return;
    this.redrivePasses.inc();
    const { created, rejected, retrying, needsReview } = summary;
    for (const [outcome, n] of Object.entries({ created, rejected, retrying, needs_review: needsReview }))
      this.redrives.inc({ outcome }, n);
  }
}
