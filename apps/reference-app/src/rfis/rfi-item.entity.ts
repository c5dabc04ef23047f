import { Column, Entity, Index, PrimaryColumn } from 'typeorm';

/**
 * One item of an RFI (spec 2.1) as the operator needs it to answer: its question, answer_type and
 * answer_spec (the rules the answer is checked against before it is sent), status and review_note.
 * The answers themselves stay at the partner: an answer_value can be an identifier (an EIN, an
 * SSN) and a document is the customer's file, so neither is stored here; of the documents only
 * their metadata (spec 2.2: id, name, type, size, checksum, time) is kept.
 */
@Entity({ name: 'rfi_items' })
@Index('idx_rfi_items_rfi', ['rfiId', 'ordinal'])
export class RfiItemEntity {
  @PrimaryColumn({ name: 'item_id', type: 'varchar', length: 64 })
  itemId!: string;

  @Column({ name: 'rfi_id', type: 'varchar', length: 64 })
  rfiId!: string;

  @Column({ name: 'ordinal', type: 'integer' })
  ordinal!: number;

  @Column({ name: 'prompt', type: 'text' })
  prompt!: string;

  @Column({ name: 'answer_type', type: 'varchar', length: 32 })
  answerType!: string;

  /** JSON of answer_spec as sent (spec 2.1: free keys, fixed by answer_type). */
  @Column({ name: 'answer_spec', type: 'text' })
  answerSpec!: string;

  @Column({ name: 'target_key', type: 'varchar', length: 200, nullable: true })
  targetKey!: string | null;

  /** JSON of subject ({ person_id, display_name }), null: the sub-client itself (spec 2.1). */
  @Column({ name: 'subject', type: 'text', nullable: true })
  subject!: string | null;

  /** pending or answered (spec 3.1), or anything newer as sent. */
  @Column({ name: 'status', type: 'varchar', length: 32 })
  status!: string;

  /** JSON array of the documents' metadata (spec 2.2); never their bytes or download links. */
  @Column({ name: 'documents', type: 'text' })
  documents!: string;

  /** Why the item was sent back; cleared when it is answered again (spec 2.1). */
  @Column({ name: 'review_note', type: 'text', nullable: true })
  reviewNote!: string | null;

  /** When the item was last answered (spec 2.1 updated_at). */
  @Column({ name: 'answered_at', type: Date, nullable: true })
  answeredAt!: Date | null;

  @Column({ name: 'returned_at', type: Date, nullable: true })
  returnedAt!: Date | null;
}
