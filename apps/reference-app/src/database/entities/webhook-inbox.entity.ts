import { Column, Entity, Index, PrimaryColumn } from 'typeorm';
import type { InboxEntryState, PartnerEnvelopeKind } from '@partner-payments/nestjs';

/**
 * One received webhook delivery, stored before the 2xx (spec 6.1.4: deliveries are not retried,
 * so what we fail to keep is lost). The primary key is a digest of data.event_id (issue 9 defect
 * 4: ids of any length and content): a second delivery of the same event cannot insert a second
 * row, even when two race. Partner text is stored in the lossless escaped form of
 * database/inbox-text.codec.ts (ordinary ids read as themselves).
 */
@Entity({ name: 'webhook_inbox' })
@Index('idx_webhook_inbox_due', ['state', 'nextAttemptAt'])
@Index('idx_webhook_inbox_processed', ['state', 'processedAt'])
export class WebhookInboxEntity {
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

  /** The exact bytes received (UTF-8), so a redelivery re-parses what the partner signed. */
  @Column({ name: 'raw_body', type: 'text' })
  rawBody!: string;

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
