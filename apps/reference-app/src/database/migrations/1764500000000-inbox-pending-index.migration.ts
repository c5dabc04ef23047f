import { TableIndex, type MigrationInterface, type QueryRunner } from 'typeorm';

/**
 * The inbox's claim (claimDue) takes the oldest never-processed entries in batches. Without an
 * index on (state, received_at, event_key) each claim would sort every pending row: after a crash
 * with a large backlog, each batch of 100 a scan and sort of the whole backlog, ahead of the work. With it, a
 * claim reads its rows in order and stops at the limit.
 */
export class InboxPendingIndex1764500000000 implements MigrationInterface {
  name = 'InboxPendingIndex1764500000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.createIndex(
      'webhook_inbox',
      new TableIndex({
        name: 'idx_webhook_inbox_pending',
        columnNames: ['state', 'received_at', 'event_key'],
      }),
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.dropIndex('webhook_inbox', 'idx_webhook_inbox_pending');
  }
}
