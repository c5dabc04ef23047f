import { fromStoredText } from '../../database/inbox-text.util';
import { type PartnerUnitOfWork } from '../../database/unit-of-work.service';
import { SqlParams } from '../../database/sql-params.util';
import { PartnerWebhookInboxEntity } from '../webhook-inbox.entity';
import type { PartnerInboxKeyRing } from './inbox-key-ring.util';

/** A key id named on stored bodies, and on how many entries. */
export interface KeyUse {
  keyId: string;
  entries: number;
}

/**
 * The inbox's bodies at rest, apart from the delivery path: which keys the
 * stored bodies need, re-sealing under the current key, and deleting processed entries past
 * retention. Every method works in bounded batches, each its own short statement or transaction.
 */
export class InboxMaintenanceStore {
  constructor(
    private readonly uow: PartnerUnitOfWork,
    private readonly keys: PartnerInboxKeyRing,
  ) {}

  /** Key ids that sealed stored bodies but are not in the key ring, with how many entries each. */
  async missingKeys(used?: KeyUse[]): Promise<KeyUse[]> {
    return (used ?? (await this.keysInUse())).filter((r) => !this.keys.has(r.keyId));
  }

  /**
   * Listed key ids whose key opens none of a few bodies it is named on: the id is right but the
   * key material is not the one that sealed them (a key made anew at each start under the same
   * id). Sampled: one body altered in the database does not count against its key.
   */
  async keysThatOpenNothing(used?: KeyUse[], sample = 3): Promise<KeyUse[]> {
    const wrong: KeyUse[] = [];
    for (const use of (used ?? (await this.keysInUse())).filter((r) => this.keys.has(r.keyId))) {
      const rows = await this.uow.run((m) =>
        m
          .createQueryBuilder(PartnerWebhookInboxEntity, 'i')
          .where('i.body_key = :keyId AND i.sealed_body IS NOT NULL', { keyId: use.keyId })
          .limit(sample)
          .getMany(),
      );
      if (rows.length > 0 && !rows.some((row) => this.opens(row))) wrong.push(use);
    }
    return wrong;
  }

  private opens(row: PartnerWebhookInboxEntity): boolean {
    try {
      this.keys.open(row.sealedBody!, row.eventKey);
      return true;
    } catch {
      return false;
    }
  }

  /** Each key id named on stored bodies, with how many entries (one pass over the body_key index). */
  async keysInUse(): Promise<KeyUse[]> {
    const rows: Array<{ keyId: string; n: string | number }> = await this.uow.run((m) =>
      m
        .createQueryBuilder(PartnerWebhookInboxEntity, 'i')
        .select('i.body_key', 'keyId')
        .addSelect('COUNT(*)', 'n')
        .where('i.body_key IS NOT NULL')
        .groupBy('i.body_key')
        .getRawMany(),
    );
    return rows.map((r) => ({ keyId: r.keyId, entries: Number(r.n) }));
  }

  /**
   * Seals under the current key up to `limit` bodies that are not: plain text copied by the
   * migration, or sealed by an older key (rotation), in event_key order after `after` (the last
   * key of the previous batch; null: from the start). An update applies only if the row still has
   * the key it was read with (another replica may be at it). A body no listed key opens (altered
   * in the database) is left as it is and its entry named in `unreadable`: it must not stop the
   * rows after it from leaving the old key. `last` is
   * the key to continue after; a caller loops until `read` is 0.
   */
  async resealBatch(
    limit: number,
    after: string | null = null,
  ): Promise<{ read: number; resealed: number; unreadable: string[]; last: string | null }> {
    const current = this.keys.currentId;
    const rows = await this.uow.run((m) => {
      const qb = m
        .createQueryBuilder(PartnerWebhookInboxEntity, 'i')
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
          .update(PartnerWebhookInboxEntity)
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
   * Deletes up to `limit` processed entries processed before `before`, oldest first, and keeps
   * each one's key in webhook_inbox_tombstones in the same transaction; returns how many. The
   * signature carries no time (spec 6.1.3), so a body replayed after its entry is gone would
   * otherwise be new again (the intake insert skips a key with a tombstone). On PostgreSQL the
   * batch holds webhook_inbox against inserts while it moves keys (SHARE ROW EXCLUSIVE, a few ms):
   * a replay racing the move then waits and sees the tombstone, where it could otherwise find
   * neither the row nor its tombstone. The wait for that lock is bounded (lock_timeout), so a long
   * processing transaction delays deliveries by at most PRUNE_LOCK_TIMEOUT_MS; the batch is then
   * left for the next run.
   */
  async pruneProcessed(before: Date, limit: number): Promise<number> {
    const kind = this.uow.kind;
    return this.uow.transaction(async (m) => {
      if (kind === 'postgres') {
        await m.query(`SET LOCAL lock_timeout = ${PRUNE_LOCK_TIMEOUT_MS}`);
        await m.query('LOCK TABLE webhook_inbox IN SHARE ROW EXCLUSIVE MODE');
      }
      const params = new SqlParams(kind);
      const rows: Array<{ event_key: string }> = await m.query(
        `SELECT event_key FROM webhook_inbox WHERE state = 'processed' AND processed_at < ${params.add(before)} ` +
          `ORDER BY processed_at LIMIT ${Math.max(1, Math.floor(limit))}`,
        params.values,
      );
      if (rows.length === 0) return 0;
      const keys = rows.map((r) => r.event_key);
      const move = new SqlParams(kind);
      await m.query(
        'INSERT INTO webhook_inbox_tombstones (event_key, processed_at) SELECT event_key, processed_at ' +
          `FROM webhook_inbox WHERE ${move.inList('event_key', keys)} ON CONFLICT (event_key) DO NOTHING`,
        move.values,
      );
      const drop = new SqlParams(kind);
      await m.query(`DELETE FROM webhook_inbox WHERE ${drop.inList('event_key', keys)}`, drop.values);
      return keys.length;
    });
  }
}

/** Longest wait of a prune batch for its lock on PostgreSQL (deliveries queue behind the wait). */
export const PRUNE_LOCK_TIMEOUT_MS = 2000;
