import type {
  InboxEntry,
  InboxEventInput,
  InboxPendingOptions,
  InboxProcessingResult,
  InboxRecordResult,
  PartnerInboxStore,
} from '@partner-payments/nestjs';
import { Brackets } from 'typeorm';
import { WebhookInboxEntity } from './webhook-inbox.entity';
import { fromStoredText, inboxEventKey, toStorableMessage, toStoredText } from '../database/inbox-text.util';
import { placeholders, timestampParam } from '../database/sql-dialect.util';
import type { UnitOfWork } from '../database/unit-of-work.service';
import { DEFAULT_INBOX_RETRY, decideInboxRetry, type InboxRetryOptions } from './inbox-retry.policy';
import type { InboxKeyRing } from './inbox-key-ring.util';

export interface TypeOrmInboxStoreOptions {
  retry?: Partial<InboxRetryOptions>;
  /** Longest last_error kept, in characters. Default 2000. */
  maxErrorLength?: number;
  clock?: () => Date;
}

/**
 * The webhook inbox on the app's database (SQLite or PostgreSQL), implementing the library's
 * PartnerInboxStore (issue: Webhooks). The row is written before the 2xx; the projection
 * handlers and markProcessed run in ONE transaction (runProcessing), so a crash leaves either
 * both or neither. Bodies are sealed with `keys` before they reach the database and opened when
 * read back (issue 9 defect 3); the body-at-rest maintenance (re-sealing, retention) is in
 * TypeOrmInboxMaintenance.
 */
export class TypeOrmInboxStore implements PartnerInboxStore {
  private readonly retry: InboxRetryOptions;
  private readonly maxErrorLength: number;
  private readonly clock: () => Date;

  constructor(
    private readonly uow: UnitOfWork,
    private readonly keys: InboxKeyRing,
    options: TypeOrmInboxStoreOptions = {},
  ) {
    this.retry = { ...DEFAULT_INBOX_RETRY, ...options.retry };
    this.maxErrorLength = options.maxErrorLength ?? 2000;
    this.clock = options.clock ?? (() => new Date());
  }

  /**
   * Insert-or-ignore on the primary key, a digest of the exact data.event_id: of two racing
   * deliveries exactly one gets 'new' (spec 6.1.4: de-duplicate on data.event_id). Same SQL on
   * both databases (SQLite >= 3.35).
   */
  async record(event: InboxEventInput): Promise<InboxRecordResult> {
    const kind = this.uow.kind;
    const eventKey = inboxEventKey(event.eventId);
    const p = placeholders(kind, 7);
    const sql =
      `INSERT INTO webhook_inbox (event_key, event_id, event_name, envelope, sealed_body, body_key, received_at, state, attempts) ` +
      `VALUES (${p.join(', ')}, 'pending', 0) ON CONFLICT (event_key) DO NOTHING RETURNING event_key`;
    const params = [
      eventKey,
      toStoredText(event.eventId),
      toStoredText(event.name),
      event.envelope,
      this.keys.seal(event.rawBody, eventKey),
      this.keys.currentId,
      timestampParam(kind, event.receivedAt),
    ];
    const rows: unknown[] = await this.uow.run((m) => m.query(sql, params));
    return rows.length === 1 ? 'new' : 'duplicate';
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
    });
  }

  async markProcessed(eventId: string): Promise<void> {
    const now = this.clock();
    await this.uow.run((m) =>
      m
        .createQueryBuilder()
        .update(WebhookInboxEntity)
        .set({ state: 'processed', processedAt: now, nextAttemptAt: null, attempts: () => 'attempts + 1' })
        .where('event_key = :eventKey', { eventKey: inboxEventKey(eventId) })
        .execute(),
    );
  }

  async markFailed(eventId: string, error: string): Promise<void> {
    const now = this.clock();
    const eventKey = inboxEventKey(eventId);
    await this.uow.transaction(async (m) => {
      const row = await m.findOne(WebhookInboxEntity, { where: { eventKey } });
      if (!row) return;
      const attempts = row.attempts + 1;
      const decision = decideInboxRetry(attempts, now, this.retry);
      await m.update(
        WebhookInboxEntity,
        { eventKey },
        {
          attempts,
          state: decision.state,
          nextAttemptAt: decision.nextAttemptAt,
          lastError: toStorableMessage(error.slice(0, this.maxErrorLength)),
        },
      );
    });
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
        .createQueryBuilder(WebhookInboxEntity, 'i')
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
        entries.push(this.toEntry(row));
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

  /** For the health endpoint and operators: entries per state. */
  async countByState(): Promise<Record<string, number>> {
    const rows: Array<{ state: string; n: string | number }> = await this.uow.run((m) =>
      m
        .createQueryBuilder(WebhookInboxEntity, 'i')
        .select('i.state', 'state')
        .addSelect('COUNT(*)', 'n')
        .groupBy('i.state')
        .getRawMany(),
    );
    return Object.fromEntries(rows.map((r) => [r.state, Number(r.n)]));
  }

  async get(eventId: string): Promise<InboxEntry | null> {
    const row = await this.uow.run((m) =>
      m.findOne(WebhookInboxEntity, { where: { eventKey: inboxEventKey(eventId) } }),
    );
    return row ? this.toEntry(row) : null;
  }

  /** The entry with its body opened (the exact text received); legacy rows give their plain text. */
  private toEntry(row: WebhookInboxEntity): InboxEntry {
    return {
      eventId: fromStoredText(row.eventId),
      name: fromStoredText(row.eventName),
      envelope: row.envelope,
      rawBody:
        row.sealedBody !== null ? this.keys.open(row.sealedBody, row.eventKey) : (row.legacyRawBody ?? ''),
      receivedAt: row.receivedAt,
      state: row.state,
      attempts: row.attempts,
      lastError: row.lastError,
      processedAt: row.processedAt,
      nextAttemptAt: row.nextAttemptAt,
    };
  }
}
