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
   * migration, or sealed by an older key (rotation). An update applies only if the row still has
   * the key it was read with (another replica may be at it); either way the row no longer matches,
   * so a caller looping until `read` is 0 ends.
   */
  async resealBatch(limit: number): Promise<{ read: number; resealed: number }> {
    const current = this.keys.currentId;
    const rows = await this.uow.run((m) =>
      m
        .createQueryBuilder(WebhookInboxEntity, 'i')
        // Three ranges rather than `<>`, so both databases can read them off the body_key index.
        .where('(i.body_key IS NULL OR i.body_key < :current OR i.body_key > :current)', { current })
        .orderBy('i.event_key', 'ASC')
        .limit(limit)
        .getMany(),
    );
    let resealed = 0;
    for (const row of rows) {
      const plain =
        row.sealedBody !== null ? this.keys.open(row.sealedBody, row.eventKey) : (row.legacyRawBody ?? '');
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
    return { read: rows.length, resealed };
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
