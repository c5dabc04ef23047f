import type { InboxEntry } from '@partner-payments/nestjs/inbox';
import type { EntityManager } from 'typeorm';
import { fromStoredText, inboxEventKey } from '../../database/inbox-text.util';
import { type CommitDurability, type PartnerUnitOfWork } from '../../database/unit-of-work.service';
import type {
  InboxFailureUpdate,
  InboxHeldRow,
  InboxSqlDriver,
  InboxStoredRow,
} from '../inbox-sql-driver.store';
import type { InboxBatchOutcome, InboxClaimOptions } from './inbox-engine.types';

/** What the runner needs from the store: how a row opens, and what a failure writes. */
export interface InboxBatchRunnerDeps {
  uow: PartnerUnitOfWork;
  /** How processing transactions commit (`inbox.processingDurability`). */
  durability: CommitDurability;
  sql: InboxSqlDriver;
  clock: () => Date;
  /** The entry with its body opened; throws when the body does not open. */
  open(row: InboxStoredRow): InboxEntry;
  /** The columns of one more failed attempt (backoff, or dead past the limit). */
  failure(previousAttempts: number, message: string): InboxFailureUpdate;
}

interface HeldItem<E> {
  eventId: string;
  key: string;
  held: InboxHeldRow | undefined;
  input: E;
}

/**
 * Batched processing for PartnerTypeOrmInboxStore: ONE transaction per batch, so a batch of n
 * entries costs one commit (one fsync) instead of n. The handlers run inside the transaction
 * (PartnerUnitOfWork's ambient manager), one entry after the other; the processed marks are one
 * statement at the end.
 *
 * Fresh entries (processBatch) run optimistically, without a savepoint each: a handler that
 * throws rolls the whole transaction back; InboxProcessor marks that entry failed
 * without running it again and runs each other entry of the batch alone. Handlers rarely fail,
 * and on PostgreSQL a savepoint is one more round trip per entry (a third of the processing's). Drained
 * entries (claimDue) keep a savepoint each: an entry that fails there is marked failed in the
 * same transaction, so a poison entry can never fail its batch again and again.
 */
export class InboxBatchRunner {
  constructor(private readonly deps: InboxBatchRunnerDeps) {}

  private get durability(): { durability: CommitDurability } {
    return { durability: this.deps.durability };
  }

  /** processBatch: these entries, skipping those processed or held by another transaction. */
  processBatch<T>(
    eventIds: readonly string[],
    work: (eventId: string) => Promise<T>,
  ): Promise<InboxBatchOutcome<T>[]> {
    const keys = eventIds.map(inboxEventKey);
    return this.deps.uow.transaction(async (m) => {
      const held = await this.deps.sql.hold(m, keys);
      const items = eventIds.map((eventId, i) => ({
        eventId,
        key: keys[i],
        held: held.get(keys[i]),
        input: eventId,
      }));
      return this.run(m, items, work, false);
    }, this.durability);
  }

  /**
   * One entry in the caller's unit of work (processInScope), under a savepoint: a throwing `work`
   * is undone and the entry marked failed there, the rest of the caller's transaction kept.
   */
  processInScope<T>(eventId: string, work: (eventId: string) => Promise<T>): Promise<InboxBatchOutcome<T>> {
    const key = inboxEventKey(eventId);
    return this.deps.uow.transaction(async (m) => {
      const held = (await this.deps.sql.hold(m, [key])).get(key);
      return (await this.run(m, [{ eventId, key, held, input: eventId }], work, true))[0];
    }, this.durability);
  }

  /** claimDue: the due entries this transaction can take, oldest first. */
  claimDue<T>(
    options: InboxClaimOptions,
    work: (entry: InboxEntry) => Promise<T>,
  ): Promise<InboxBatchOutcome<T>[]> {
    const now = options.now ?? this.deps.clock();
    const due = {
      now,
      youngest: new Date(now.getTime() - (options.minAgeMs ?? 0)),
      limit: Math.max(1, options.limit ?? 100),
      exclude: (options.excludeEventIds ?? []).map(inboxEventKey),
    };
    return this.deps.uow.transaction(async (m) => {
      const rows = await this.deps.sql.claimDue(m, due);
      const unreadable: InboxBatchOutcome<T>[] = [];
      const items: Array<HeldItem<InboxEntry>> = [];
      for (const row of rows) {
        let entry: InboxEntry;
        try {
          entry = this.deps.open(row);
        } catch (error) {
          // A body that cannot be opened (altered in the database) fails like a handler would,
          // backs off, and ends dead and visible; it never stalls the entries behind it.
          const message = `stored body cannot be opened: ${(error as Error).message}`;
          const update = this.deps.failure(row.attempts, message);
          await this.deps.sql.markFailed(m, row.eventKey, update);
          unreadable.push({
            eventId: fromStoredText(row.eventId),
            outcome: 'failed',
            error: message,
            retryAt: update.nextAttemptAt,
          });
          continue;
        }
        items.push({ eventId: entry.eventId, key: row.eventKey, held: row, input: entry });
      }
      return [...unreadable, ...(await this.run(m, items, work, true))];
    }, this.durability);
  }

  private async run<E, T>(
    m: EntityManager,
    items: ReadonlyArray<HeldItem<E>>,
    work: (input: E) => Promise<T>,
    savepoints: boolean,
  ): Promise<InboxBatchOutcome<T>[]> {
    const { sql } = this.deps;
    const outcomes: InboxBatchOutcome<T>[] = [];
    const processed: string[] = [];
    let open = false; // whether inbox_entry exists in this transaction
    for (const item of items) {
      // Not held: gone, or another transaction (replica) has it. Processed: someone got there first.
      if (!item.held || item.held.state === 'processed') {
        outcomes.push({ eventId: item.eventId, outcome: 'skipped' });
        continue;
      }
      if (!savepoints) {
        // No savepoint: a throw here rolls the whole batch back (see the class comment).
        outcomes.push({ eventId: item.eventId, outcome: 'processed', value: await work(item.input) });
        processed.push(item.key);
        continue;
      }
      await sql.savepoint(m, open ? 'next' : 'first');
      open = true;
      try {
        const value = await work(item.input);
        processed.push(item.key);
        outcomes.push({ eventId: item.eventId, outcome: 'processed', value });
      } catch (error) {
        // Only this entry's writes go; the ones before it were released into the transaction.
        await sql.savepoint(m, 'rollback');
        const message = error instanceof Error ? error.message : String(error);
        const update = this.deps.failure(item.held.attempts, message);
        await sql.markFailed(m, item.key, update);
        // retryAt: what claimDue compares with its `now`, so a drain need not exclude it by id.
        outcomes.push({
          eventId: item.eventId,
          outcome: 'failed',
          error: message,
          retryAt: update.nextAttemptAt,
        });
      }
    }
    await sql.markProcessed(m, processed, this.deps.clock());
    return outcomes;
  }
}
