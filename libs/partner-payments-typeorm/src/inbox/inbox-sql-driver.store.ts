import type {
  InboxEntry,
  InboxEntryState,
  InboxEventInput,
  PartnerEnvelopeKind,
} from '@partner-payments/nestjs/inbox';
import type { EntityManager } from 'typeorm';
import { fromStoredText, inboxEventKey, toStoredText } from '../database/inbox-text.util';
import type { PartnerInboxKeyRing } from './at-rest/inbox-key-ring.util';
import type { PartnerWebhookInboxEntity } from './webhook-inbox.entity';

/** A row to insert: partner text already escaped (toStoredText), body already sealed. */
export interface InboxInsertRow {
  eventKey: string;
  eventId: string;
  eventName: string;
  envelope: PartnerEnvelopeKind;
  sealedBody: string;
  bodyKey: string;
  receivedAt: Date;
}

/** What processing needs of an entry it holds. */
export interface InboxHeldRow {
  state: InboxEntryState;
  attempts: number;
}

/** The columns of a failed attempt (decideInboxRetry's decision and the error). */
export interface InboxFailureUpdate {
  attempts: number;
  state: InboxEntryState;
  nextAttemptAt: Date | null;
  lastError: string;
}

export interface InboxDueSelection {
  now: Date;
  /** Never-processed entries received after this are not due yet (minAgeMs). */
  youngest: Date;
  limit: number;
  /** Keys not to claim (entries a run already tried). */
  exclude: readonly string[];
}

/** A whole stored row, as the entity holds it. */
export type InboxStoredRow = Omit<PartnerWebhookInboxEntity, never>;

/**
 * The per-entry savepoint, named inbox_entry. 'next' keeps what the previous entry did and opens
 * a new savepoint (RELEASE then SAVEPOINT: one round trip on PostgreSQL); 'first' opens the
 * first; 'rollback' undoes back to it (it stays open). COMMIT keeps an open savepoint's work.
 */
export type SavepointStep = 'first' | 'next' | 'rollback';

export const SAVEPOINT_SQL: Record<SavepointStep, string> = {
  first: 'SAVEPOINT inbox_entry',
  next: 'RELEASE SAVEPOINT inbox_entry; SAVEPOINT inbox_entry',
  rollback: 'ROLLBACK TO SAVEPOINT inbox_entry',
};

/**
 * The inbox's hot path on one database, on its driver directly: better-sqlite3's
 * prepared statements, or pg's named statements, where TypeORM's query building and result
 * mapping cost more than the work. One implementation per database; PartnerTypeOrmInboxStore builds the
 * library's PartnerInboxStore on it. Methods taking `m` run inside that transaction's connection.
 */
export interface InboxSqlDriver {
  /**
   * Inserts the rows whose key is absent (insert-or-ignore), all in one transaction (one commit),
   * or in the ambient one when called inside a unit of work. true for each row it inserted.
   */
  insertBatch(rows: readonly InboxInsertRow[]): Promise<boolean[]>;
  /**
   * These entries' state and attempts. PostgreSQL locks them for the transaction and leaves out
   * the rows another transaction holds (FOR UPDATE SKIP LOCKED): another replica is on them.
   */
  hold(m: EntityManager, keys: readonly string[]): Promise<Map<string, InboxHeldRow>>;
  /** Up to `limit` due entries, oldest first; locked, skipping held ones, on PostgreSQL. */
  claimDue(m: EntityManager, due: InboxDueSelection): Promise<InboxStoredRow[]>;
  savepoint(m: EntityManager, step: SavepointStep): Promise<void>;
  markProcessed(m: EntityManager, keys: readonly string[], at: Date): Promise<void>;
  markFailed(m: EntityManager, key: string, update: InboxFailureUpdate): Promise<void>;
}

/** The columns a whole row is read with (claimDue). */
export const INBOX_COLUMNS =
  'event_key, event_id, event_name, envelope, sealed_body, body_key, raw_body, received_at, state, attempts, ' +
  'last_error, processed_at, next_attempt_at';

/** A row read with INBOX_COLUMNS, its times converted by `date` (each database returns its own form). */
export function storedRow(r: Record<string, unknown>, date: (v: unknown) => Date | null): InboxStoredRow {
  const text = (v: unknown): string | null => (v === null || v === undefined ? null : String(v));
  return {
    eventKey: String(r.event_key),
    eventId: String(r.event_id),
    eventName: String(r.event_name),
    envelope: r.envelope as InboxStoredRow['envelope'],
    sealedBody: text(r.sealed_body),
    bodyKey: text(r.body_key),
    legacyRawBody: text(r.raw_body),
    receivedAt: date(r.received_at) as Date,
    state: r.state as InboxStoredRow['state'],
    attempts: Number(r.attempts),
    lastError: text(r.last_error),
    processedAt: date(r.processed_at),
    nextAttemptAt: date(r.next_attempt_at),
  };
}

/** The row recording `event`: partner text escaped (toStoredText), the body sealed under the current key. */
export function sealedRow(event: InboxEventInput, keys: PartnerInboxKeyRing): InboxInsertRow {
  const eventKey = inboxEventKey(event.eventId);
  return {
    eventKey,
    eventId: toStoredText(event.eventId),
    eventName: toStoredText(event.name),
    envelope: event.envelope,
    sealedBody: keys.seal(event.rawBody, eventKey),
    bodyKey: keys.currentId,
    receivedAt: event.receivedAt,
  };
}

/** The entry with its body opened (the exact text received); legacy rows give their plain text. */
export function openRow(row: InboxStoredRow, keys: PartnerInboxKeyRing): InboxEntry {
  return {
    eventId: fromStoredText(row.eventId),
    name: fromStoredText(row.eventName),
    envelope: row.envelope,
    rawBody: row.sealedBody !== null ? keys.open(row.sealedBody, row.eventKey) : (row.legacyRawBody ?? ''),
    receivedAt: row.receivedAt,
    state: row.state,
    attempts: row.attempts,
    lastError: row.lastError,
    processedAt: row.processedAt,
    nextAttemptAt: row.nextAttemptAt,
  };
}
