import { Column, Entity, PrimaryColumn } from 'typeorm';

/**
 * The key of an inbox entry the retention job deleted (`webhook_inbox_tombstones`), so a signed
 * body replayed after its entry is gone is still a duplicate: the signature carries no time
 * (spec 6.1.3), so an old body stays authentic for ever and its key must outlive it. Nothing of
 * the partner's is kept: the 64-character digest and when the event was processed.
 */
@Entity({ name: 'webhook_inbox_tombstones' })
export class PartnerWebhookInboxTombstoneEntity {
  /** inboxEventKey(data.event_id), as in webhook_inbox. */
  @PrimaryColumn({ name: 'event_key', type: 'varchar', length: 64 })
  eventKey!: string;

  @Column({ name: 'processed_at', type: Date, nullable: true })
  processedAt!: Date | null;
}
