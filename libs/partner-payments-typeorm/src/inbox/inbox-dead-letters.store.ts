import { fromStoredText, inboxEventKey } from '../database/inbox-text.util';
import { type PartnerUnitOfWork } from '../database/unit-of-work.service';
import { PartnerWebhookInboxEntity } from './webhook-inbox.entity';

/** A dead inbox entry as an operator sees it: never its body (sealed at rest). */
export interface DeadInboxEntry {
  eventId: string;
  eventName: string;
  attempts: number;
  lastError: string | null;
  receivedAt: Date;
}

/**
 * The inbox's dead letters (entries whose handlers failed `inbox.maxAttempts` times, which nothing
 * retries any more): which they are, and putting them back in the redelivery queue once the cause
 * is fixed. The partner never re-sends a delivery (spec 6.1.4), so the stored entry is the only
 * copy of the event, and this is how it is retried without editing `webhook_inbox` by hand.
 */
export class InboxDeadLetters {
  constructor(
    private readonly uow: PartnerUnitOfWork,
    private readonly clock: () => Date = () => new Date(),
  ) {}

  /** Up to `limit` dead entries, oldest received first (idx_webhook_inbox_dead). */
  async list(limit: number): Promise<DeadInboxEntry[]> {
    const rows = await this.uow.run((m) =>
      m
        .createQueryBuilder(PartnerWebhookInboxEntity, 'i')
        .select(['i.eventKey', 'i.eventId', 'i.eventName', 'i.attempts', 'i.lastError', 'i.receivedAt'])
        .where('i.state = :dead', { dead: 'dead' })
        .orderBy('i.received_at', 'ASC')
        .addOrderBy('i.event_key', 'ASC')
        .limit(limit)
        .getMany(),
    );
    return rows.map((r) => ({
      eventId: fromStoredText(r.eventId),
      eventName: fromStoredText(r.eventName),
      attempts: r.attempts,
      lastError: r.lastError,
      receivedAt: r.receivedAt,
    }));
  }

  /**
   * Makes these dead entries (all of them when `eventIds` is null) due again now, as failed
   * entries: the redelivery job runs their handlers on its next run. Their attempts are kept, so
   * one more failure leaves an entry dead again instead of starting a new series of retries.
   * Entries that are not dead (processed, pending, unknown ids) are left as they are.
   */
  async requeue(eventIds: readonly string[] | null): Promise<number> {
    if (eventIds?.length === 0) return 0;
    const result = await this.uow.run((m) => {
      const update = m
        .createQueryBuilder()
        .update(PartnerWebhookInboxEntity)
        .set({ state: 'failed', nextAttemptAt: this.clock() })
        .where('state = :dead', { dead: 'dead' });
      if (eventIds) update.andWhere('event_key IN (:...keys)', { keys: eventIds.map(inboxEventKey) });
      return update.execute();
    });
    return result.affected ?? 0;
  }
}
