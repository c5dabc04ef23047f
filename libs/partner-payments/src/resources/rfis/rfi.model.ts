/**
 * RFI wire models (spec 2.1, 2.2, 4.3; provider-facts "RFIs"). Field names are snake_case exactly as
 * the API sends them. answer_spec keys per answer_type come from provider-facts (weak: read from
 * integrations built on 2026-06-01), so every spec type keeps unknown keys through an index signature.
 */

/** A string union that still accepts values the contract does not name yet (without losing autocompletion). */
type OpenString<T extends string> = T | (string & Record<never, never>);

/** spec 2.1: answer_type enum, in the order the contract lists it. */
export const RFI_ANSWER_TYPES = [
  'text_long',
  'text_short',
  'number',
  'date',
  'boolean',
  'choice',
  'identifier',
  'document',
  'ubo_link',
] as const;
export type RfiAnswerType = (typeof RFI_ANSWER_TYPES)[number];

/** provider-facts "RFIs": identifier answer_spec.format values seen. */
export const RFI_IDENTIFIER_FORMATS = ['ein', 'ssn', 'email', 'e164', 'url', 'country_alpha3'] as const;
export type RfiIdentifierFormat = (typeof RFI_IDENTIFIER_FORMATS)[number];

/** Keys the contract does not name are preserved as they arrive (spec 2.1: "object (free keys)"). */
export interface RfiAnswerSpecBase {
  [key: string]: unknown;
}

/** text_short / text_long: max_length (spec 2.1 for text_short, spec 8), format (provider-facts). */
export interface RfiTextAnswerSpec extends RfiAnswerSpecBase {
  max_length?: number;
  format?: string;
}

/** number: min, max, unit (provider-facts). */
export interface RfiNumberAnswerSpec extends RfiAnswerSpecBase {
  min?: number;
  max?: number;
  unit?: string;
}

/** date: min_age in years; the answer is then a birth date (provider-facts). */
export interface RfiDateAnswerSpec extends RfiAnswerSpecBase {
  min_age?: number;
}

export type RfiChoiceScalar = string | number | boolean;
/** options[] entries: plain values, or objects carrying the value (tolerated, shape not shown). */
export type RfiChoiceOption =
  RfiChoiceScalar | { value: RfiChoiceScalar; label?: string; [key: string]: unknown };

/** choice: options (spec 2.1). */
export interface RfiChoiceAnswerSpec extends RfiAnswerSpecBase {
  options?: RfiChoiceOption[];
}

/** identifier: format (provider-facts); unknown formats are accepted and only shape-checked. */
export interface RfiIdentifierAnswerSpec extends RfiAnswerSpecBase {
  format?: OpenString<RfiIdentifierFormat>;
}

/** document: mime_types, max_files (spec 2.1, spec 8), document_type (provider-facts). */
export interface RfiDocumentAnswerSpec extends RfiAnswerSpecBase {
  mime_types?: string[];
  max_files?: number;
  document_type?: string;
}

/** ubo_link: a url, or applicant_id + person_id (provider-facts). */
export interface RfiUboLinkAnswerSpec extends RfiAnswerSpecBase {
  url?: string;
  applicant_id?: string;
  person_id?: string;
}

/** answer_spec typed by answer_type: narrowing on answer_type narrows answer_spec. */
export interface RfiAnswerSpecByType {
  text_long: RfiTextAnswerSpec;
  text_short: RfiTextAnswerSpec;
  number: RfiNumberAnswerSpec;
  date: RfiDateAnswerSpec;
  boolean: RfiAnswerSpecBase;
  choice: RfiChoiceAnswerSpec;
  identifier: RfiIdentifierAnswerSpec;
  document: RfiDocumentAnswerSpec;
  ubo_link: RfiUboLinkAnswerSpec;
}

/** spec 2.1: what an answer looks like on the wire ("string, number or boolean"). */
export type RfiAnswerValue = string | number | boolean;

/** spec 2.1 status enum (pending, answered); other values tolerated (3.1: after send-back not shown). */
export type RfiItemStatus = OpenString<'pending' | 'answered'>;

/** spec 2.1 subject: null means the sub-client itself. */
export interface RfiItemSubject {
  /** id of an entry in the sub-client's associated_persons */
  person_id: string;
  /** name as currently stored; null when the person can no longer be found */
  display_name: string | null;
}

/** spec 2.2 RFI document. */
export interface RfiDocument {
  document_id: string;
  /** the uploaded name, sanitized; the internal storage path is never exposed */
  file_name: string;
  mime_type: string;
  size_bytes: number;
  checksum: string;
  uploaded_at: string;
}

interface RfiItemFields {
  item_id: string;
  ordinal: number;
  prompt: string;
  target_key: string | null;
  subject: RfiItemSubject | null;
  status: RfiItemStatus;
  /** null on a document item (spec 2.1) */
  answer_value: RfiAnswerValue | null;
  /** always present; empty unless answer_type is document */
  documents: RfiDocument[];
  review_note: string | null;
  updated_at: string | null;
  returned_at: string | null;
}

/** One item with a given answer_type. */
export type RfiItemOf<T extends RfiAnswerType> = RfiItemFields & {
  answer_type: T;
  answer_spec: RfiAnswerSpecByType[T];
};

/** spec 2.1 RFI item: a union discriminated by answer_type. */
export type RfiItem = { [T in RfiAnswerType]: RfiItemOf<T> }[RfiAnswerType];

/** provider-facts "RFIs" (weak): RFI status values. */
export type RfiStatus = OpenString<'pending' | 'answered' | 'resolved' | 'not_resolved' | 'withdrawn'>;

/** spec 3.2: a closed RFI refuses answers. */
export const RFI_CLOSED_STATUSES: readonly string[] = ['resolved', 'not_resolved'];

export function isRfiClosed(status: string | null | undefined): boolean {
  // Case-insensitive like every status helper; a missing status (weak-fact bodies) is not closed.
  return typeof status === 'string' && RFI_CLOSED_STATUSES.includes(status.trim().toLowerCase());
}

/**
 * The RFI parent record's own fields, shared by a list entry and the detail. Its fields are "not
 * shown" in spec 2.5; these come from provider-facts (weak), so everything beyond id and status is
 * optional and unknown keys are kept.
 */
export interface RfiParentFields {
  id: string;
  status: RfiStatus;
  user_id?: string;
  /** evidence §7: the deadline; never extended (on expiry: not_resolved, resolution_reason expired). */
  due_at?: string;
  /** evidence §7: the payout or deposit the RFI holds: `{type, transfer_uuid | virtual_account_deposit_uuid}`. */
  blocking?: { type?: string; transfer_uuid?: string; virtual_account_deposit_uuid?: string } | null;
  /** evidence §7: `expired`, `rejected` (or `withdrawn`) once closed without resolution. */
  resolution_reason?: string | null;
  created_at?: string;
  updated_at?: string;
  [key: string]: unknown;
}

/** The RFI as `rfis.get(rfiId)` reads it (GET /v1/rfis/{rfi_id}): the parent and its items. */
export interface Rfi extends RfiParentFields {
  /** Every item of the RFI; `[]` only when the partner's detail answer carries none. */
  items: RfiItem[];
}

/**
 * One entry of `rfis.list` / `rfis.iterate` (GET /v1/rfis): the parent fields, never the items.
 * evidence §7 [T1 KiraApiClient, AnswerRfiService]: the partner's list entries may lack `items`
 * (re-read the detail), so the client never hands them out here, even when an entry has some:
 * `items` is always undefined, and an app behaves the same whichever way the partner answers.
 * Read the items with `rfis.get(entry.id)`.
 */
export interface RfiListEntry extends RfiParentFields {
  /** Always undefined on a list entry (evidence §7): read the items with `rfis.get(id)`. */
  items?: undefined;
}

/** spec 4.3: one element of the PATCH body's items array. */
export interface RfiAnswerInput {
  item_id: string;
  answer_value: RfiAnswerValue;
}

/** spec 4.3: the PATCH body. */
export interface RfiAnswerRequest {
  items: RfiAnswerInput[];
}
