import type {
  InboxDrainOptions,
  InboxDrainSummary,
  InboxEntry,
  InboxEntryState,
  InboxEventInput,
  InboxProcessOutcome,
  InboxRecordResult,
  PartnerInboxStore,
} from '@partner-payments/nestjs/inbox';
import { inboxEventKey, toStorableMessage } from '../database/inbox-text.util';
import { type CommitDurability, type PartnerUnitOfWork } from '../database/unit-of-work.service';
import { InboxBatchRunner } from './engine/inbox-batch-runner.service';
import { drainByClaims } from './engine/inbox-drain.util';
import { readDueEntries, type InboxDueRead } from './engine/inbox-due-read.util';
import type { InboxBatchOutcome, InboxClaimOptions } from './engine/inbox-engine.types';
import { InboxGroupCommit } from './engine/inbox-group-commit.util';
import { InboxProcessor } from './engine/inbox-processor.util';
import { resolveInboxBatching, type PartnerTypeOrmInboxBatching } from './inbox.options';
import { failConfiguration } from '../partner-payments-typeorm.errors';
import type { PartnerInboxKeyRing } from './at-rest/inbox-key-ring.util';
import { DEFAULT_INBOX_RETRY, decideInboxRetry, type InboxRetryOptions } from './inbox-retry.policy';
import { openRow, sealedRow, type InboxFailureUpdate, type InboxSqlDriver } from './inbox-sql-driver.store';
import { PostgresInboxDriver } from './postgres-inbox-driver.store';
import { SqliteInboxDriver } from './sqlite-inbox-driver.store';
import { PartnerWebhookInboxEntity } from './webhook-inbox.entity';
import { countInboxStates } from './inbox-state-counts.util';
import type { InboxWriteHealth } from './inbox-write-health.service';

export interface PartnerTypeOrmInboxStoreOptions {
  retry?: Partial<InboxRetryOptions>;
  /** Longest last_error kept, in characters. Default 2000. */
  maxErrorLength?: number;
  clock?: () => Date;
  /** PostgreSQL: bound of the insert recording a batch, in ms (`inbox.recordTimeoutMs`). Default 10000. */
  recordTimeoutMs?: number;
  /**
   * How processing transactions commit (`inbox.processingDurability`, which says why). Default
   * 'relaxed' on SQLite, 'full' on PostgreSQL, where 'relaxed' is refused.
   */
  processingDurability?: CommitDurability;
  /** Told each recording's outcome (readiness: PartnerInboxOperator.checkWrites). */
  writes?: Pick<InboxWriteHealth, 'recorded' | 'failed'>;
  /** Group commit and batched processing (`inbox.maxRecordRows` and the others). */
  batching?: Partial<PartnerTypeOrmInboxBatching>;
}

/**
 * The durable webhook inbox on your DataSource (SQLite or PostgreSQL), the `PartnerInboxStore` of
 * `@partner-payments/nestjs`: pass it as `inboxStore` to `PartnerPaymentsModule`. The row is
 * written before the 2xx; the handlers' writes (through PartnerUnitOfWork) and the processed mark
 * commit in ONE transaction, so a crash leaves either both or neither. Bodies are sealed with
 * `keys` before they reach the database and opened when read back. Concurrent deliveries share one
 * commit (group commit), fresh entries one processing transaction, and a drain claims its batches
 * with FOR UPDATE SKIP LOCKED on PostgreSQL, on each database's driver directly; the rarer calls
 * stay on TypeORM. Provided by
 * `PartnerPaymentsTypeOrmModule` with the `inbox` option; the constructor is for tests and tools.
 */
export class PartnerTypeOrmInboxStore implements PartnerInboxStore {
  private readonly retry: InboxRetryOptions;
  private readonly maxErrorLength: number;
  private readonly clock: () => Date;
  private readonly sql: InboxSqlDriver;
  private readonly batches: InboxBatchRunner;
  private readonly processing: { durability: CommitDurability };
  private readonly writes: PartnerTypeOrmInboxStoreOptions['writes'];
  private readonly group: InboxGroupCommit;
  private readonly processor: InboxProcessor;

  constructor(
    private readonly uow: PartnerUnitOfWork,
    private readonly keys: PartnerInboxKeyRing,
    options: PartnerTypeOrmInboxStoreOptions = {},
  ) {
    this.retry = { ...DEFAULT_INBOX_RETRY, ...options.retry };
    this.maxErrorLength = options.maxErrorLength ?? 2000;
    this.clock = options.clock ?? (() => new Date());
    this.writes = options.writes;
    if (uow.kind === 'postgres' && options.processingDurability === 'relaxed')
      throw new Error("PartnerTypeOrmInboxStore: processingDurability 'relaxed' is for SQLite only");
    this.processing = {
      durability: options.processingDurability ?? (uow.kind === 'sqlite' ? 'relaxed' : 'full'),
    };
    this.sql =
      uow.kind === 'postgres'
        ? new PostgresInboxDriver(uow, options.recordTimeoutMs)
        : new SqliteInboxDriver(uow);
    this.batches = new InboxBatchRunner({
      uow,
      durability: this.processing.durability,
      sql: this.sql,
      clock: this.clock,
      open: (row) => openRow(row, this.keys),
      failure: (attempts, message) => this.failure(attempts, message),
    });
    const batching = resolveInboxBatching(options.batching, failConfiguration);
    // Through `this`, so each batch calls the methods as they are when it runs.
    this.group = new InboxGroupCommit(
      { recordBatch: (events) => this.recordBatch(events) },
      { maxRows: batching.maxRecordRows, maxWaitMs: batching.maxWaitMs },
    );
    this.processor = new InboxProcessor(
      {
        processBatch: (ids, work) => this.processBatch(ids, work),
        markFailed: (id, error) => this.markFailed(id, error),
        keepScope: (within, work) => uow.keepScope(within, work),
        inUnitOfWork: () => uow.inUnitOfWork(),
        processInScope: (id, work) => this.batches.processInScope(id, work),
      },
      batching,
    );
  }

  /** Resolves once the row committed, in a batch shared with concurrent deliveries; inside a
   * unit of work, in it alone (the others' rows must not share its fate). */
  async record(event: InboxEventInput): Promise<InboxRecordResult> {
    if (this.uow.inUnitOfWork()) return (await this.recordBatch([event]))[0];
    return this.group.record(event);
  }

  /**
   * Runs `handle` in a processing transaction shared with the other entries queued meanwhile, the
   * processed mark in it (PartnerInboxStore.process); inside a unit of work, alone in it under a
   * savepoint. An entry processed already, or held by another transaction (SKIP LOCKED), is skipped.
   */
  process<T>(eventId: string, handle: () => Promise<T>): Promise<InboxProcessOutcome<T>> {
    return this.processor.process(eventId, handle);
  }

  /** Claims and processes due batches until the run has tried them all (PartnerInboxStore.drain). */
  drain<T>(
    handle: (entry: InboxEntry) => Promise<T>,
    options: InboxDrainOptions = {},
  ): Promise<InboxDrainSummary> {
    return drainByClaims((claim) => this.claimDue(claim, handle), options);
  }

  /**
   * Insert-or-ignore on the primary key, a digest of the exact data.event_id, for the whole batch
   * in one transaction: of two racing deliveries exactly one gets 'new' (spec 6.1.4: de-duplicate
   * on data.event_id); within a batch, the first of a repeated id.
   */
  async recordBatch(events: readonly InboxEventInput[]): Promise<InboxRecordResult[]> {
    const rows = events.map((event) => sealedRow(event, this.keys));
    let inserted: boolean[];
    try {
      inserted = await this.sql.insertBatch(rows);
    } catch (error) {
      this.writes?.failed(
        error,
        rows.reduce((n, r) => n + r.sealedBody.length, 0),
      );
      throw error;
    }
    this.writes?.recorded();
    const answered = new Set<string>();
    return rows.map((row, i) => {
      const first = !answered.has(row.eventKey);
      answered.add(row.eventKey);
      return inserted[i] && first ? 'new' : 'duplicate';
    });
  }

  /**
   * One transaction for these entries, `work` run for each in turn, each processed entry marked
   * in it; processed entries and those another transaction holds are skipped. A throwing `work`
   * rolls the whole transaction back (process() then runs the others alone). For tests and tools.
   */
  processBatch<T>(
    eventIds: readonly string[],
    work: (eventId: string) => Promise<T>,
  ): Promise<InboxBatchOutcome<T>[]> {
    return this.batches.processBatch(eventIds, work);
  }

  /**
   * Claims up to `options.limit` due entries in one transaction and processes them, a savepoint
   * each: a failing entry is marked failed in it. Resolves to [] when nothing is due.
   */
  claimDue<T>(
    options: InboxClaimOptions,
    work: (entry: InboxEntry) => Promise<T>,
  ): Promise<InboxBatchOutcome<T>[]> {
    return this.batches.claimDue(options, work);
  }

  /**
   * Counts a failed attempt and schedules the next (or dead); resolves to when it is due again,
   * null when dead or not recorded. A processed entry stays processed: recorded after the failed
   * transaction rolled back, a drain may have processed the entry in between, and `failed` would
   * run its handlers again (spec 6.1.4: process each event once). On PostgreSQL the row is read FOR
   * UPDATE, so a drain still holding it is waited for and its outcome is what is read.
   */
  async markFailed(eventId: string, error: string): Promise<Date | null> {
    const now = this.clock();
    const eventKey = inboxEventKey(eventId);
    return this.uow.transaction(async (m) => {
      const row = await m.findOne(PartnerWebhookInboxEntity, {
        where: { eventKey },
        ...(this.uow.kind === 'postgres' ? { lock: { mode: 'pessimistic_write' as const } } : {}),
      });
      if (!row || row.state === 'processed') return null;
      const update = this.failure(row.attempts, error, now);
      await m.update(PartnerWebhookInboxEntity, { eventKey }, update);
      return update.nextAttemptAt;
    });
  }

  /** One more failed attempt: counted, the next scheduled (or dead past the limit), error kept. */
  private failure(previousAttempts: number, error: string, now = this.clock()): InboxFailureUpdate {
    const attempts = previousAttempts + 1;
    const decision = decideInboxRetry(attempts, now, this.retry);
    return {
      attempts,
      state: decision.state,
      nextAttemptAt: decision.nextAttemptAt,
      lastError: toStorableMessage(error.slice(0, this.maxErrorLength)),
    };
  }

  /** Due entries, oldest first, not held (for tools and tests; a drain claims): see readDueEntries. */
  pending(options: Partial<InboxDueRead> = {}): Promise<InboxEntry[]> {
    const read = { ...options, now: options.now ?? this.clock() };
    return readDueEntries(
      this.uow,
      read,
      (row) => openRow(row, this.keys),
      (id, e) => this.markFailed(id, e),
    );
  }

  /**
   * Entries per state, states with none left out: all four by default. Each count reads its
   * state's partial index; `processed` is most of the inbox, so name only the states you need.
   */
  async countByState(
    states: readonly InboxEntryState[] = ['pending', 'processed', 'failed', 'dead'],
  ): Promise<Record<string, number>> {
    return this.uow.run((m) => countInboxStates(m, states));
  }

  async get(eventId: string): Promise<InboxEntry | null> {
    const row = await this.uow.run((m) =>
      m.findOne(PartnerWebhookInboxEntity, { where: { eventKey: inboxEventKey(eventId) } }),
    );
    return row ? openRow(row, this.keys) : null;
  }
}
