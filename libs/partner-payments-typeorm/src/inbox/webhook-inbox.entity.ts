import { Column, Entity, Index, PrimaryColumn } from 'typeorm';
import type { InboxEntryState, PartnerEnvelopeKind } from '@partner-payments/nestjs/inbox';

/**
 * One received webhook delivery (`webhook_inbox`), stored before the 2xx (spec 6.1.4: deliveries
 * are not retried, so what we fail to keep is lost). The primary key is a digest of data.event_id
 * (ids of any length and content): a second delivery of the same event cannot insert a second
 * row, even when two race. Partner text is stored in the lossless escaped form of toStoredText
 * (ordinary ids read as themselves).
 */
@Entity({ name: 'webhook_inbox' })
// One partial index per state (a delivery enters one index, and processing moves it to another,
// instead of every row in three): read them with state = '...'.
@Index('idx_webhook_inbox_pending', ['receivedAt', 'eventKey'], { where: "state = 'pending'" })
@Index('idx_webhook_inbox_due', ['nextAttemptAt'], { where: "state = 'failed'" })
@Index('idx_webhook_inbox_dead', ['receivedAt', 'eventKey'], { where: "state = 'dead'" })
@Index('idx_webhook_inbox_processed', ['processedAt'], { where: "state = 'processed'" })
@Index('idx_webhook_inbox_body_key', ['bodyKey'])
export class PartnerWebhookInboxEntity {
  /** sha256 (hex) over the UTF-16 code units of data.event_id (inboxEventKey). */
  @PrimaryColumn({ name: 'event_key', type: 'varchar', length: 64 })
  eventKey!: string;

  /** data.event_id whole, escaped (toStoredText): any length, NUL-safe, lone surrogates kept. */
  @Column({ name: 'event_id', type: 'text' })
  eventId!: string;

  /** The `event` field, escaped like eventId. */
  @Column({ name: 'event_name', type: 'text' })
  eventName!: string;

  @Column({ name: 'envelope', type: 'varchar', length: 8 })
  envelope!: PartnerEnvelopeKind;

  /**
   * The exact bytes received, sealed with AES-256-GCM (PartnerInboxKeyRing): no account
   * number or other partner data at rest in plain text.
   */
  @Column({ name: 'sealed_body', type: 'text', nullable: true })
  sealedBody!: string | null;

  /** The id of the key that sealed the body (rotation: rows under an older key are re-sealed at start). */
  @Column({ name: 'body_key', type: 'varchar', length: 32, nullable: true })
  bodyKey!: string | null;

  /** Plain text only on rows stored before sealing existed; sealed and cleared at the next start. */
  @Column({ name: 'raw_body', type: 'text', nullable: true })
  legacyRawBody!: string | null;

  @Column({ name: 'received_at', type: Date })
  receivedAt!: Date;

  @Column({ name: 'state', type: 'varchar', length: 16, default: 'pending' })
  state!: InboxEntryState;

  @Column({ name: 'attempts', type: 'integer', default: 0 })
  attempts!: number;

  @Column({ name: 'last_error', type: 'text', nullable: true })
  lastError!: string | null;

  @Column({ name: 'processed_at', type: Date, nullable: true })
  processedAt!: Date | null;

  @Column({ name: 'next_attempt_at', type: Date, nullable: true })
  nextAttemptAt!: Date | null;
}
