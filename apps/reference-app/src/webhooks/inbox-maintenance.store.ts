import { fromStoredText } from '../database/inbox-text.util';
import { WebhookInboxEntity } from './webhook-inbox.entity';
import type { UnitOfWork } from '../database/unit-of-work.service';
import type { InboxKeyRing } from './inbox-key-ring.util';

/**
 * The inbox's bodies at rest (issue 9 defect 3), apart from the delivery path: which keys the
 * stored bodies need, re-sealing under the current key, and deleting processed entries past
 * retention. Every method works in bounded batches, each its own short statement or transaction.
 */
export class InboxMaintenanceStore {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly keys: InboxKeyRing,
  ) {}

  /** Key ids that sealed stored bodies but are not in the key ring, with how many entries each. */
  async missingKeys(): Promise<Array<{ keyId: string; entries: number }>> {
    const rows: Array<{ keyId: string; n: string | number }> = await this.uow.run((m) =>
      m
        .createQueryBuilder(WebhookInboxEntity, 'i')
        .select('i.body_key', 'keyId')
        .addSelect('COUNT(*)', 'n')
        .where('i.body_key IS NOT NULL')
        .groupBy('i.body_key')
        .getRawMany(),
    );
    return rows.filter((r) => !this.keys.has(r.keyId)).map((r) => ({ keyId: r.keyId, entries: Number(r.n) }));
  }

  /**
   * Seals under the current key up to `limit` bodies that are not: plain text copied by the
   * migration, or sealed by an older key (rotation), in event_key order after `after` (the last
   * key of the previous batch; null: from the start). An update applies only if the row still has
   * the key it was read with (another replica may be at it). A body no listed key opens (altered
   * in the database) is left as it is and its entry named in `unreadable`: it must not stop the
   * rows after it from leaving the old key (it used to end the whole pass at its row). `last` is
   * the key to continue after; a caller loops until `read` is 0.
   */
  async resealBatch(
    limit: number,
    after: string | null = null,
  ): Promise<{ read: number; resealed: number; unreadable: string[]; last: string | null }> {
    const current = this.keys.currentId;
    const rows = await this.uow.run((m) => {
      const qb = m
        .createQueryBuilder(WebhookInboxEntity, 'i')
        // Three ranges rather than `<>`, so both databases can read them off the body_key index.
        .where('(i.body_key IS NULL OR i.body_key < :current OR i.body_key > :current)', { current });
      if (after !== null) qb.andWhere('i.event_key > :after', { after });
      return qb.orderBy('i.event_key', 'ASC').limit(limit).getMany();
    });
    let resealed = 0;
    const unreadable: string[] = [];
    for (const row of rows) {
      let plain: string;
      try {
        plain =
          row.sealedBody !== null ? this.keys.open(row.sealedBody, row.eventKey) : (row.legacyRawBody ?? '');
      } catch {
        unreadable.push(fromStoredText(row.eventId));
        continue;
      }
      const changed = await this.uow.run((m) => {
        const qb = m
          .createQueryBuilder()
          .update(WebhookInboxEntity)
          .set({ sealedBody: this.keys.seal(plain, row.eventKey), bodyKey: current, legacyRawBody: null })
          .where('event_key = :eventKey', { eventKey: row.eventKey });
        if (row.bodyKey === null) qb.andWhere('body_key IS NULL');
        else qb.andWhere('body_key = :was', { was: row.bodyKey });
        return qb.execute();
      });
      if (changed.affected !== 0) resealed += 1;
    }
    return { read: rows.length, resealed, unreadable, last: rows.at(-1)?.eventKey ?? null };
  }

  /**
   * Deletes up to `limit` processed entries processed before `before`, oldest first; returns how
   * many. One short statement per batch, so live deliveries never wait long behind it.
   */
  async pruneProcessed(before: Date, limit: number): Promise<number> {
    const result = await this.uow.run((m) =>
      m
        .createQueryBuilder()
        .delete()
        .from(WebhookInboxEntity)
        .where(
          `event_key IN (SELECT event_key FROM webhook_inbox WHERE state = 'processed' ` +
            `AND processed_at < :before ORDER BY processed_at LIMIT ${Math.max(1, Math.floor(limit))})`,
          { before },
        )
        .execute(),
    );
    return result.affected ?? 0;
  }
}
