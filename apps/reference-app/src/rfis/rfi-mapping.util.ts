import type { Rfi } from '@partner-payments/nestjs';
import { parsePartnerTimestamp, type RfiItem, type RfiListEntry } from '@partner-payments/nestjs/models';
import { columnText } from '../webhooks/projections/column-text.util';
import { RfiItemEntity } from './rfi-item.entity';
import { normaliseRfiStatus } from './rfi-status.policy';

/**
 * The parent fields of a partner RFI as the `rfis` row stores them (evidence §7). `blocking` and
 * `resolutionReason` are undefined when the record does not carry the field at all (spec 2.5: the
 * parent's fields are not shown; a list entry may carry fewer), so an absent field never clears
 * what a fuller read recorded.
 */
export interface RfiParentColumns {
  userId: string | null;
  status: string | null;
  blocking?: { type: string | null; ref: string | null } | null;
  dueAt: Date | null;
  resolutionReason?: string | null;
  createdAt: Date | null;
}

const text = (value: unknown, max: number): string | null =>
  typeof value === 'string' ? columnText(value, max) : null;

/** evidence §7: `blocking{type, transfer_uuid | virtual_account_deposit_uuid}`, null when it holds nothing. */
export function parentColumns(rfi: RfiListEntry | Rfi): RfiParentColumns {
  const held = typeof rfi.blocking === 'object' && rfi.blocking !== null ? rfi.blocking : null;
  return {
    userId: text(rfi.user_id, 64),
    status: normaliseRfiStatus(rfi.status),
    blocking: !('blocking' in rfi)
      ? undefined
      : held && {
          type: text(held.type, 32),
          ref: text(held.transfer_uuid ?? held.virtual_account_deposit_uuid, 64),
        },
    dueAt: parsePartnerTimestamp(rfi.due_at),
    resolutionReason: 'resolution_reason' in rfi ? text(rfi.resolution_reason, 32) : undefined,
    createdAt: parsePartnerTimestamp(rfi.created_at),
  };
}

/** spec 2.2: what is kept of a document (never its bytes nor a download link). */
function documentMetadata(documents: unknown): string {
  if (!Array.isArray(documents)) return '[]';
  return JSON.stringify(
    documents.map((d: Record<string, unknown>) => ({
      document_id: d?.document_id ?? null,
      file_name: d?.file_name ?? null,
      mime_type: d?.mime_type ?? null,
      size_bytes: d?.size_bytes ?? null,
      checksum: d?.checksum ?? null,
      uploaded_at: d?.uploaded_at ?? null,
    })),
  );
}

/** One item as its row: everything but answer_value (rfi-item.entity.ts says why). */
export function itemRow(rfiId: string, item: RfiItem): RfiItemEntity {
  const row = new RfiItemEntity();
  row.itemId = String(item.item_id).toLowerCase();
  row.rfiId = rfiId;
  row.ordinal = Number.isSafeInteger(item.ordinal) ? item.ordinal : 0;
  row.prompt = text(item.prompt, 10_000) ?? '';
  row.answerType = text(item.answer_type, 32) ?? 'unknown';
  row.answerSpec = JSON.stringify(item.answer_spec ?? {});
  row.targetKey = text(item.target_key, 200);
  row.subject = item.subject ? JSON.stringify(item.subject) : null;
  row.status = normaliseRfiStatus(item.status) ?? 'pending';
  row.documents = documentMetadata(item.documents);
  row.reviewNote = text(item.review_note, 10_000);
  row.answeredAt = parsePartnerTimestamp(item.updated_at);
  row.returnedAt = parsePartnerTimestamp(item.returned_at);
  return row;
}

/** The stored item back in the partner's shape, without answer_value: what the validator reads. */
export function itemFromRow(row: RfiItemEntity): RfiItem {
  return {
    item_id: row.itemId,
    ordinal: row.ordinal,
    prompt: row.prompt,
    answer_type: row.answerType,
    answer_spec: JSON.parse(row.answerSpec) as Record<string, unknown>,
    target_key: row.targetKey,
    subject: row.subject ? (JSON.parse(row.subject) as RfiItem['subject']) : null,
    status: row.status,
    answer_value: null,
    documents: JSON.parse(row.documents) as RfiItem['documents'],
    review_note: row.reviewNote,
    updated_at: row.answeredAt?.toISOString() ?? null,
    returned_at: row.returnedAt?.toISOString() ?? null,
  } as RfiItem;
}
