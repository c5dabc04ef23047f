import type { RfiItem } from '@partner-payments/nestjs/models';
import type { RfiItemEntity } from './rfi-item.entity';
import { itemFromRow } from './rfi-mapping.util';
import type { RfiEntity } from './rfi.entity';

/** An RFI as GET /rfis and GET /rfis/{rfi_id} answer it (snake_case, as the partner names its fields). */
export function rfiView(row: RfiEntity, now = new Date()) {
  return {
    rfi_id: row.rfiId,
    user_id: row.userId,
    status: row.status,
    blocking: row.blocking ? { type: row.blockingType, reference: row.blockingRef } : null,
    due_at: row.dueAt?.toISOString() ?? null,
    overdue: row.dueAt !== null && row.dueAt.getTime() < now.getTime(),
    resolution_reason: row.resolutionReason,
    opened_at: row.openedAt.toISOString(),
    /** true: an event arrived that has not been read back yet (items may be missing or old). */
    stale: row.stale,
    read_at: row.readAt?.toISOString() ?? null,
    last_source: row.lastSource,
  };
}

/** An item as stored: no answer_value (rfi-item.entity.ts), the documents' metadata only. */
export function itemView(row: RfiItemEntity): Omit<RfiItem, 'answer_value'> {
  const { answer_value: _kept_at_the_partner, ...item } = itemFromRow(row);
  return item;
}
