import { TableIndex, type MigrationInterface, type QueryRunner } from 'typeorm';

/**
 * So that replicas reconcile side by side without queuing on each other: a pass claims every payout it
 * checks by writing `last_checked_at` (one UPDATE per list page). That column was in
 * idx_payouts_reconcile (status, last_checked_at), so every claim wrote a new entry into each of the
 * table's four indexes, and two replicas' claims queued on the same index pages (all new entries
 * sort last). No statement uses the index for last_checked_at (the claims' order is computed over
 * the candidates, never read from it), so it becomes an index on status alone. On PostgreSQL the
 * table also keeps 10% of each page free (fillfactor 90): a claim then rewrites the row in its own
 * page and touches no index at all (a HOT update); status changes still update the indexes.
 */
export class PayoutClaimsHot1764600000000 implements MigrationInterface {
  name = 'PayoutClaimsHot1764600000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.dropIndex('payouts', 'idx_payouts_reconcile');
    await queryRunner.createIndex(
      'payouts',
      new TableIndex({ name: 'idx_payouts_status', columnNames: ['status'] }),
    );
    if (queryRunner.connection.options.type === 'postgres')
      await queryRunner.query('ALTER TABLE payouts SET (fillfactor = 90)');
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    if (queryRunner.connection.options.type === 'postgres')
      await queryRunner.query('ALTER TABLE payouts RESET (fillfactor)');
    await queryRunner.dropIndex('payouts', 'idx_payouts_status');
    await queryRunner.createIndex(
      'payouts',
      new TableIndex({ name: 'idx_payouts_reconcile', columnNames: ['status', 'last_checked_at'] }),
    );
  }
}
