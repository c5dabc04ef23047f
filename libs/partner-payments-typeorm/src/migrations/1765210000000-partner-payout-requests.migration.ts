import { Table, TableIndex, type MigrationInterface, type QueryRunner } from 'typeorm';
import { timestampColumnType, varcharColumn } from '../database/migration-columns.util';

const TABLE = 'partner_payout_requests';
const INDEX = 'idx_partner_payout_requests_state_created';

/**
 * partner_payout_requests, as PartnerPayoutRequestEntity maps it, with the index the re-drive
 * selects by. Timestamps are timestamptz on PostgreSQL (an instant, whatever the server's time
 * zone) and UTC text on SQLite. Skipped when the table exists (a `synchronize` development
 * database switched to migrations).
 */
export class PartnerPayoutRequests1765210000000 implements MigrationInterface {
  name = 'PartnerPayoutRequests1765210000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    if (await queryRunner.hasTable(TABLE)) return;
    const ts = timestampColumnType(queryRunner);
    await queryRunner.createTable(
      new Table({
        name: TABLE,
        columns: [
          { ...varcharColumn('idempotency_key', 64), isPrimary: true },
          varcharColumn('fingerprint', 64),
          varcharColumn('virtual_account_id', 64),
          varcharColumn('recipient_id', 64),
          varcharColumn('amount', 32),
          varcharColumn('currency', 8),
          { name: 'memo', type: 'text', isNullable: true },
          varcharColumn('state', 16),
          varcharColumn('payout_id', 64, true),
          { name: 'last_error', type: 'text', isNullable: true },
          { name: 'attempts', type: 'integer', default: 0, isNullable: false },
          { name: 'next_attempt_at', type: ts, isNullable: true },
          { name: 'created_at', type: ts, isNullable: false },
          { name: 'updated_at', type: ts, isNullable: false },
        ],
        indices: [new TableIndex({ name: INDEX, columnNames: ['state', 'created_at'] })],
      }),
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.dropTable(TABLE, true);
  }
}
