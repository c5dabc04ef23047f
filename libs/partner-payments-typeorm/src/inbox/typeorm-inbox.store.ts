import type {
  InboxBatchOutcome,
  InboxClaimOptions,
  InboxEntry,
  InboxEntryState,
  InboxEventInput,
  InboxPendingOptions,
  InboxProcessingResult,
  InboxRecordResult,
  PartnerInboxStore,
} from '@partner-payments/nestjs/inbox';
import { Brackets } from 'typeorm';
import { fromStoredText, inboxEventKey, toStorableMessage } from '../database/inbox-text.util';
import { type CommitDurability, type PartnerUnitOfWork } from '../database/unit-of-work.service';
import { placeholders } from '../database/sql-dialect.util';
import { InboxBatchRunner } from './inbox-batch-runner.service';
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
}

/**
 * The durable webhook inbox on your DataSource (SQLite or PostgreSQL), the `PartnerInboxStore` of
 * `@partner-payments/nestjs`: pass it as `inboxStore` to `PartnerPaymentsModule`. The row is
 * written before the 2xx; the handlers' writes (through PartnerUnitOfWork) and the processed mark
 * commit in ONE transaction, so a crash leaves either both or neither. Bodies are sealed with
 * `keys` before they reach the database and opened when read back. Deliveries are recorded in
 * batches (recordBatch: the module's group commit) and processed in batches (processBatch,
 * claimDue), on each database's driver directly; the rarer calls stay on TypeORM. Provided by
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
  }

  async record(event: InboxEventInput): Promise<InboxRecordResult> {
    return (await this.recordBatch([event]))[0];
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

  processBatch<T>(
    eventIds: readonly string[],
    work: (eventId: string) => Promise<T>,
  ): Promise<InboxBatchOutcome<T>[]> {
    return this.batches.processBatch(eventIds, work);
  }

  claimDue<T>(
    options: InboxClaimOptions,
    work: (entry: InboxEntry) => Promise<T>,
  ): Promise<InboxBatchOutcome<T>[]> {
    return this.batches.claimDue(options, work);
  }

  /**
   * Opens the transaction the handlers and markProcessed share. On PostgreSQL the inbox row is
   * locked first (FOR UPDATE), so a redelivery racing the original processing (another replica's
   * redelivery job picked the entry from a stale snapshot) waits instead of running the handlers
   * side by side. Once it holds the row it re-reads the state: an entry the other side already
   * processed is not processed again (nothing applied twice), and `work` is not run.
   */
  async runProcessing<T>(eventId: string, work: () => Promise<T>): Promise<InboxProcessingResult<T>> {
    return this.uow.transaction(async (manager) => {
      const lock = this.uow.kind === 'postgres' ? ' FOR UPDATE' : '';
      const p = placeholders(this.uow.kind, 1);
      const rows: Array<{ state: string }> = await manager.query(
        `SELECT state FROM webhook_inbox WHERE event_key = ${p[0]}${lock}`,
        [inboxEventKey(eventId)],
      );
      if (rows[0]?.state === 'processed') return { ran: false };
      return { ran: true, value: await work() };
    }, this.processing);
  }

  async markProcessed(eventId: string): Promise<void> {
    const now = this.clock();
    await this.uow.run((m) =>
      m
        .createQueryBuilder()
        .update(PartnerWebhookInboxEntity)
        .set({ state: 'processed', processedAt: now, nextAttemptAt: null, attempts: () => 'attempts + 1' })
        .where('event_key = :eventKey', { eventKey: inboxEventKey(eventId) })
        .execute(),
    );
  }

  /**
   * A processed entry stays processed (PartnerInboxStore.markFailed): recorded after the failed
   * transaction rolled back, a drain may have processed the entry in between, and `failed` would
   * run its handlers again (spec 6.1.4: process each event once). On PostgreSQL the row is read FOR
   * UPDATE, so a drain still holding it is waited for and its outcome is what is read.
   */
  async markFailed(eventId: string, error: string): Promise<void> {
    const now = this.clock();
    const eventKey = inboxEventKey(eventId);
    await this.uow.transaction(async (m) => {
      const row = await m.findOne(PartnerWebhookInboxEntity, {
        where: { eventKey },
        ...(this.uow.kind === 'postgres' ? { lock: { mode: 'pessimistic_write' as const } } : {}),
      });
      if (!row || row.state === 'processed') return;
      await m.update(PartnerWebhookInboxEntity, { eventKey }, this.failure(row.attempts, error, now));
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

  /**
   * Never processed (and old enough), or failed and due; oldest received first. An entry whose
   * sealed body does not open is marked failed instead of returned.
   */
  async pending(options: InboxPendingOptions = {}): Promise<InboxEntry[]> {
    const now = options.now ?? this.clock();
    const youngest = new Date(now.getTime() - (options.minAgeMs ?? 0));
    const rows = await this.uow.run((m) =>
      m
        .createQueryBuilder(PartnerWebhookInboxEntity, 'i')
        .where(
          new Brackets((w) => {
            w.where('i.state = :pending AND i.received_at <= :youngest', { pending: 'pending', youngest });
            w.orWhere('i.state = :failed AND i.next_attempt_at <= :now', { failed: 'failed', now });
          }),
        )
        .orderBy('i.received_at', 'ASC')
        .addOrderBy('i.event_key', 'ASC')
        .limit(options.limit ?? 100)
        .getMany(),
    );
    const entries: InboxEntry[] = [];
    for (const row of rows) {
      try {
        entries.push(openRow(row, this.keys));
      } catch (error) {
        // A body that cannot be opened (altered in the database) must not stall every other
        // entry behind it: it fails like a handler would, backs off, and ends dead and visible.
        await this.markFailed(
          fromStoredText(row.eventId),
          `stored body cannot be opened: ${(error as Error).message}`,
        );
      }
    }
    return entries;
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
