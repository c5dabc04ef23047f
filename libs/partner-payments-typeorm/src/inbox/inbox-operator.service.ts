import type { BeforeApplicationShutdown, OnApplicationBootstrap } from '@nestjs/common';
import { PartnerLocalValidationError } from '@partner-payments/nestjs';
import type { InboxEntryState } from '@partner-payments/nestjs/inbox';
import type { PartnerUnitOfWork } from '../database/unit-of-work.service';
import { PartnerTypeOrmConfigurationError } from '../partner-payments-typeorm.errors';
import type { InboxAtRestService, PruneSummary } from './at-rest/inbox-at-rest.service';
import type { DeadInboxEntry, InboxDeadLetters } from './inbox-dead-letters.store';
import type { InboxRedeliveryService, RedeliverySummary } from './inbox-redelivery.service';
import { readInboxBacklog, type PartnerInboxBacklog } from './inbox-backlog.util';
import type { InboxWriteHealth, InboxWriteState } from './inbox-write-health.service';
import type { PartnerTypeOrmInboxStore } from './typeorm-inbox.store';

/** The parts the operator drives (PartnerPaymentsTypeOrmModule builds them from the `inbox` option). */
export interface InboxOperatorParts {
  uow: PartnerUnitOfWork;
  store: PartnerTypeOrmInboxStore;
  deadLetters: InboxDeadLetters;
  redelivery: InboxRedeliveryService;
  atRest: InboxAtRestService;
  writes: InboxWriteHealth;
}

/**
 * What an operator does with the inbox, for an app to put behind its own routes and auth: counts
 * and backlog (metrics, readiness), the dead letters and their retry, a drain of what is due, the
 * retention prune, and whether the inbox can record a delivery now. The partner never re-sends a
 * delivery (spec 6.1.4): the stored entry is the only copy of an event, and these are the ways to
 * see and move it. Its start-up pass refuses to boot when a sealing key that sealed stored bodies
 * is missing, then re-seals bodies under the current key in the background.
 */
export class PartnerInboxOperator implements OnApplicationBootstrap, BeforeApplicationShutdown {
  constructor(private readonly configured: InboxOperatorParts | null) {}

  private get parts(): InboxOperatorParts {
    if (!this.configured)
      throw new PartnerTypeOrmConfigurationError(
        'inbox',
        'is not configured: give PartnerPaymentsTypeOrmModule.forRoot the inbox option ({ sealingKeys }) to use PartnerInboxOperator',
      );
    return this.configured;
  }

  /** Settles when the start's re-sealing pass has ended. */
  get startup(): Promise<void> {
    return this.configured?.atRest.startup ?? Promise.resolve();
  }

  async onApplicationBootstrap(): Promise<void> {
    await this.configured?.atRest.onApplicationBootstrap();
  }

  async beforeApplicationShutdown(): Promise<void> {
    this.configured?.redelivery.beforeApplicationShutdown();
    await this.configured?.atRest.beforeApplicationShutdown();
  }

  /**
   * Entries per state, states with none left out: all four by default. Each count reads its
   * state's partial index; `processed` is most of the inbox, so leave it out where it is not needed.
   */
  async countByState(states?: readonly InboxEntryState[]): Promise<Record<string, number>> {
    return this.parts.store.countByState(states);
  }

  /** Pending, failed and dead counts and the oldest unprocessed entries' age (gauges, readiness). */
  async backlog(now: Date = new Date()): Promise<PartnerInboxBacklog> {
    return readInboxBacklog(this.parts.uow, now);
  }

  /** Up to `limit` (1 to 1000) dead entries, oldest received first; never a body. */
  async deadLetters(limit = 100): Promise<DeadInboxEntry[]> {
    checkInteger('limit', limit, 1, MAX_READ);
    return this.parts.deadLetters.list(limit);
  }

  /**
   * Makes these dead entries (all of them when `eventIds` is null) due again and drains now. Their
   * attempts are kept: a handler still failing leaves the entry dead after one more try. Ids that
   * are not dead are left alone. When another run holds the drain (`redelivery.ran` false), it or
   * the next takes them. At most 1000 ids a call.
   */
  async redeliverDead(
    eventIds: readonly string[] | null = null,
  ): Promise<{ requeued: number; redelivery: RedeliverySummary }> {
    if (eventIds !== null) checkEventIds(eventIds);
    const requeued = await this.parts.deadLetters.requeue(eventIds);
    return { requeued, redelivery: await this.drain() };
  }

  /**
   * Processes what is due (PartnerWebhookProcessingService.processPending), batch after batch
   * until nothing is left: failed entries past their backoff, and pending ones older than
   * `minAgeMs` (default 10 s: younger ones are probably being processed by their own delivery; 0
   * at start, when nothing of this process is in flight; an integer, 0 or more). `limit`: entries
   * per read, 1 to 1000. Every replica may run it at once.
   */
  async drain(options: { minAgeMs?: number; limit?: number } = {}): Promise<RedeliverySummary> {
    if (options.limit !== undefined) checkInteger('limit', options.limit, 1, MAX_READ);
    if (options.minAgeMs !== undefined)
      checkInteger('minAgeMs', options.minAgeMs, 0, Number.MAX_SAFE_INTEGER);
    return this.parts.redelivery.runOnce(options);
  }

  /**
   * Deletes processed entries older than `inbox.retentionDays`, in batches, under a job lock (one
   * replica at a time; `tick`: the cron tick it serves, so replicas run it once per tick).
   * `batchSize`: entries a statement deletes, 1 to 10000 (default 500).
   */
  async prune(options: { tick?: Date; now?: Date; batchSize?: number } = {}): Promise<PruneSummary> {
    if (options.batchSize !== undefined) checkInteger('batchSize', options.batchSize, 1, MAX_BATCH);
    for (const field of ['now', 'tick'] as const) {
      const value = options[field];
      if (value !== undefined && !(value instanceof Date && Number.isFinite(value.getTime())))
        throw invalid(field, 'must be a valid Date');
    }
    return this.parts.atRest.prune(options);
  }

  /**
   * Seals under the current key every body that is not (the start runs it); returns how many.
   * `batchSize`: rows read at a time, 1 to 10000 (default 500).
   */
  async reseal(options: { batchSize?: number } = {}): Promise<number> {
    if (options.batchSize !== undefined) checkInteger('batchSize', options.batchSize, 1, MAX_BATCH);
    return this.parts.atRest.reseal(options);
  }

  /** Whether the inbox can record a delivery now: a write, not `SELECT 1` (readiness). */
  async checkWrites(): Promise<InboxWriteState> {
    return this.parts.writes.check();
  }
}

/** Most entries one read returns (dead letters, a drain's batch): an operator's route bounds its answer. */
const MAX_READ = 1000;
/** Most rows one prune or re-seal statement handles. */
const MAX_BATCH = 10_000;

/**
 * A bad argument is refused with PartnerLocalValidationError naming it, before any statement. The
 * operator's numbers often come from a query string: NaN, 0 or a negative would otherwise mean
 * no LIMIT (every dead entry read at once) or a prune loop that never ends.
 */
function checkInteger(field: string, value: number, min: number, max: number): void {
  if (!Number.isInteger(value) || value < min || value > max)
    throw invalid(field, `must be an integer from ${min} to ${max}, got ${String(value)}`);
}

/** One statement binds every id: past the bound, the database's own parameter limit would refuse it, unnamed. */
function checkEventIds(eventIds: readonly string[]): void {
  if (!Array.isArray(eventIds) || eventIds.length > MAX_READ)
    throw invalid('eventIds', `must be null or an array of at most ${MAX_READ} event ids`);
  const bad = eventIds.findIndex((id) => typeof id !== 'string');
  if (bad >= 0) throw invalid(`eventIds[${bad}]`, 'must be a string');
}

function invalid(field: string, message: string): PartnerLocalValidationError {
  return new PartnerLocalValidationError([{ field, message }]);
}
