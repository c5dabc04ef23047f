import { Injectable } from '@nestjs/common';
import type { Rfi } from '@partner-payments/nestjs';
import type { RfiItem, RfiListEntry } from '@partner-payments/nestjs/models';
import { PartnerUnitOfWork } from '@partner-payments/typeorm';
import { In, LessThan, type EntityManager, type FindOptionsWhere } from 'typeorm';
import { itemRow, parentColumns } from './rfi-mapping.util';
import { RfiItemEntity } from './rfi-item.entity';
import { decideRfiStatus, OPEN_RFI_STATUSES } from './rfi-status.policy';
import { RfiEntity, type RfiSource } from './rfi.entity';

/** What one write did to the row: created it, changed what the operator sees, or nothing. */
export type RfiWriteOutcome = 'created' | 'changed' | 'unchanged';

export interface OpenRfiFilters {
  userId?: string;
  blocking?: boolean;
  dueBefore?: Date;
}

/** The columns an outcome compares (what an operator acts on), as comparable text. */
const watched = (row: RfiEntity): string[] =>
  [row.status, row.blocking, row.dueAt?.getTime() ?? null, row.userId, row.resolutionReason].map(String);

/**
 * The RFI projection (rfis, rfi_items). Every write goes through PartnerUnitOfWork: inside the
 * inbox's transaction when an `rfi.*` handler calls it (the row commits with the processed mark),
 * in a transaction of its own otherwise. The partner is never called from here (a transaction must
 * not wait on HTTP): events only record what they say and mark the row stale; reads of the RFI
 * (RfiSync) write its items.
 */
@Injectable()
export class RfiProjection {
  constructor(private readonly uow: PartnerUnitOfWork) {}

  /** An `rfi.*` event (evidence §9: no items): the row, its status, and a read still owed. */
  async applyEvent(obs: { rfiId: string; userId: string | null; status: string | null }): Promise<void> {
    await this.uow.transaction(async (m) => {
      const row = (await this.lockRow(m, obs.rfiId)) ?? this.newRow(obs.rfiId, new Date());
      row.userId ??= obs.userId;
      row.status = decideRfiStatus(row.status || null, obs.status) ?? 'pending';
      row.stale = true;
      row.lastSource = 'event';
      row.updatedAt = new Date();
      await m.upsert(RfiEntity, row, ['rfiId']);
    });
  }

  /**
   * A list entry (no items) or the detail (with items, which replace the stored ones). A list
   * entry the app did not hold, or whose status moved, leaves the row stale: its items are read next.
   */
  async applyRead(rfi: Rfi | RfiListEntry, source: Exclude<RfiSource, 'event'>): Promise<RfiWriteOutcome> {
    const rfiId = String(rfi.id).toLowerCase();
    const cols = parentColumns(rfi);
    return this.uow.transaction(async (m) => {
      const existing = await this.lockRow(m, rfiId);
      const now = new Date();
      const row = existing ? { ...existing } : this.newRow(rfiId, now);
      const before = existing ? watched(existing) : null;
      row.userId = cols.userId ?? row.userId;
      row.status = decideRfiStatus(existing?.status ?? null, cols.status) ?? (row.status || 'pending');
      if (cols.blocking !== undefined) {
        row.blocking = cols.blocking !== null;
        row.blockingType = cols.blocking?.type ?? null;
        row.blockingRef = cols.blocking?.ref ?? null;
      }
      row.dueAt = cols.dueAt ?? row.dueAt;
      if (cols.resolutionReason !== undefined) row.resolutionReason = cols.resolutionReason;
      if (cols.createdAt && !existing) row.openedAt = cols.createdAt;
      if (rfi.items) {
        row.stale = false;
        row.readAt = now;
        await this.writeItems(m, rfiId, rfi.items);
      } else if (!existing || existing.status !== row.status) {
        row.stale = true;
      }
      row.lastSource = source;
      row.updatedAt = now;
      await m.upsert(RfiEntity, row, ['rfiId']);
      if (!before) return 'created';
      return watched(row).some((v, i) => v !== before[i]) ? 'changed' : 'unchanged';
    });
  }

  /** Items the partner answered back (PATCH, upload): written over the stored ones. */
  async applyItems(rfiId: string, items: RfiItem[]): Promise<void> {
    await this.uow.transaction((m) => this.writeItems(m, rfiId.toLowerCase(), items));
  }

  /** The RFI answered 404 (withdrawn, spec 3.2) or 409 (closed): it is read again, or recorded gone. */
  async markStale(rfiId: string): Promise<void> {
    await this.uow.run((m) => m.update(RfiEntity, { rfiId: rfiId.toLowerCase() }, { stale: true }));
  }

  async markWithdrawn(rfiId: string): Promise<void> {
    const now = new Date();
    await this.uow.run((m) =>
      m.update(
        RfiEntity,
        { rfiId: rfiId.toLowerCase() },
        { status: 'withdrawn', stale: false, readAt: now, lastSource: 'reconciliation', updatedAt: now },
      ),
    );
  }

  async find(rfiId: string): Promise<{ rfi: RfiEntity; items: RfiItemEntity[] } | null> {
    const id = rfiId.toLowerCase();
    return this.uow.run(async (m) => {
      const rfi = await m.findOne(RfiEntity, { where: { rfiId: id } });
      if (!rfi) return null;
      const items = await m.find(RfiItemEntity, { where: { rfiId: id }, order: { ordinal: 'ASC' } });
      return { rfi, items };
    });
  }

  /** Open RFIs (pending, answered), soonest deadline first. */
  async listOpen(filters: OpenRfiFilters = {}, limit = 500): Promise<RfiEntity[]> {
    const where: FindOptionsWhere<RfiEntity> = { status: In([...OPEN_RFI_STATUSES]) };
    if (filters.userId) where.userId = filters.userId.toLowerCase();
    if (filters.blocking !== undefined) where.blocking = filters.blocking;
    if (filters.dueBefore) where.dueAt = LessThan(filters.dueBefore);
    return this.uow.run((m) =>
      m.find(RfiEntity, { where, order: { dueAt: 'ASC', rfiId: 'ASC' }, take: limit }),
    );
  }

  /** Rows an event marked and no read has followed yet, and open rows: what a reconciliation pass re-reads. */
  async idsToRead(): Promise<{ stale: string[]; open: string[] }> {
    return this.uow.run(async (m) => {
      const stale = await m.find(RfiEntity, { select: { rfiId: true }, where: { stale: true } });
      const open = await m.find(RfiEntity, {
        select: { rfiId: true },
        where: { status: In([...OPEN_RFI_STATUSES]) },
      });
      return { stale: stale.map((r) => r.rfiId), open: open.map((r) => r.rfiId) };
    });
  }

  private async writeItems(m: EntityManager, rfiId: string, items: RfiItem[]): Promise<void> {
    const rows = items.filter((i) => typeof i?.item_id === 'string').map((i) => itemRow(rfiId, i));
    if (rows.length) await m.upsert(RfiItemEntity, rows, ['itemId']);
  }

  /** The row, locked for this transaction on PostgreSQL (SQLite has one writer). */
  private lockRow(m: EntityManager, rfiId: string): Promise<RfiEntity | null> {
    return m.findOne(RfiEntity, {
      where: { rfiId: rfiId.toLowerCase() },
      ...(this.uow.kind === 'postgres' ? { lock: { mode: 'pessimistic_write' as const } } : {}),
    });
  }

  private newRow(rfiId: string, now: Date): RfiEntity {
    return Object.assign(new RfiEntity(), {
      rfiId: rfiId.toLowerCase(),
      userId: null,
      status: '',
      blocking: false,
      blockingType: null,
      blockingRef: null,
      dueAt: null,
      resolutionReason: null,
      openedAt: now,
      stale: true,
      readAt: null,
      lastSource: 'event',
      updatedAt: now,
    } satisfies Partial<RfiEntity>);
  }
}
