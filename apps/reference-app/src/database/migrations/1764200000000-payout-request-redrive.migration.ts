import { TableColumn, TableIndex, type MigrationInterface, type QueryRunner } from 'typeorm';

/**
 * The outbox re-drive of POST /payouts: payout_requests.attempts (re-sends made)
 * and next_attempt_at (when the re-drive may send again: a claim while a re-send is in flight, a
 * backoff after a failed one), and an index on what the re-drive pass selects.
 */
export class PayoutRequestRedrive1764200000000 implements MigrationInterface {
  name = 'PayoutRequestRedrive1764200000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    const ts = queryRunner.connection.options.type === 'postgres' ? 'timestamptz' : 'datetime';
    await queryRunner.addColumns('payout_requests', [
      new TableColumn({ name: 'attempts', type: 'integer', default: 0, isNullable: false }),
      new TableColumn({ name: 'next_attempt_at', type: ts, isNullable: true }),
    ]);
    await queryRunner.createIndex(
      'payout_requests',
      new TableIndex({ name: 'idx_payout_requests_state_created', columnNames: ['state', 'created_at'] }),
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.dropIndex('payout_requests', 'idx_payout_requests_state_created');
    await queryRunner.dropColumn('payout_requests', 'next_attempt_at');
    await queryRunner.dropColumn('payout_requests', 'attempts');
  }
}
