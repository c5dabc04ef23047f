import { Column, Entity, Index, PrimaryColumn } from 'typeorm';
import type { InboxEntryState, PartnerEnvelopeKind } from '@partner-payments/nestjs';

/**
 * One received webhook delivery, stored before the 2xx (spec 6.1.4: deliveries are not retried,
 * so what we fail to keep is lost). The primary key on data.event_id is the de-duplication:
 * a second delivery of the same event cannot insert a second row, even when two race.
 */
@Entity({ name: 'webhook_inbox' })
@Index('idx_webhook_inbox_due', ['state', 'nextAttemptAt'])
export class WebhookInboxEntity {
  @PrimaryColumn({ name: 'event_id', type: 'varchar', length: 191 })
  eventId!: string;

  @Column({ name: 'event_name', type: 'varchar', length: 200 })
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
