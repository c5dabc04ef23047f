/** In-memory records of the simulated partner's RFIs (spec 3.1, evidence §7). */
/** An RFI item's `answer_type`: the kind of answer it asks for (spec 2.1). */
export type AnswerType =
  | 'text_long'
  | 'text_short'
  | 'number'
  | 'date'
  | 'boolean'
  | 'choice'
  | 'identifier'
  | 'document'
  | 'ubo_link';

export interface RfiDocument {
  document_id: string;
  file_name: string;
  mime_type: string;
  size_bytes: number;
  checksum: string;
  uploaded_at: string;
}

export interface RfiItemRecord {
  item_id: string;
  ordinal: number;
  prompt: string;
  answer_type: AnswerType;
  answer_spec: Record<string, unknown>;
  target_key: string | null;
  subject: { person_id: string; display_name: string | null } | null;
  status: 'pending' | 'answered';
  answer_value: string | number | boolean | null;
  documents: RfiDocument[];
  review_note: string | null;
  updated_at: string | null;
  returned_at: string | null;
}

export type RfiStatus = 'pending' | 'answered' | 'resolved' | 'not_resolved' | 'withdrawn';

export interface RfiRecord {
  rfi_id: string;
  clientUuid: string;
  user_id: string;
  status: RfiStatus;
  /** evidence §7 [T1 AnswerRfiService]: never extended; on expiry the RFI closes not_resolved / expired. */
  due_at: string;
  /** evidence §7: what the RFI holds, `{type, transfer_uuid | virtual_account_deposit_uuid}`, or null. */
  blocking: Record<string, string> | null;
  /** evidence §7: `expired`, `rejected` or `withdrawn` once closed without resolution; null before. */
  resolution_reason: string | null;
  items: RfiItemRecord[];
  /** Stored bytes by document_id (never exposed as a path, spec 2.2). */
  files: Map<string, Buffer>;
  created_at: string;
  updated_at: string;
}
