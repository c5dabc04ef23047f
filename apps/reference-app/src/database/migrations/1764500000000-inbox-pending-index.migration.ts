import { TableIndex, type MigrationInterface, type QueryRunner } from 'typeorm';

/**
 * Issue 14: the inbox's claim (claimDue) takes the oldest never-processed entries in batches.
 * Without an index on (state, received_at, event_key) each claim sorted every pending row: 50,000
 * stored after a crash made each batch of 100 a scan and sort of up to 50,000 rows (about 22 ms on
 * SQLite, ahead of the work). With it, a claim reads its rows in order and stops at the limit.
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
