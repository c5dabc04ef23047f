import {
  Table,
  TableIndex,
  type MigrationInterface,
  type QueryRunner,
  type TableColumnOptions,
} from 'typeorm';

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
    const ts = queryRunner.connection.options.type === 'postgres' ? 'timestamptz' : 'datetime';
    const str = (name: string, length: number, isNullable = false): TableColumnOptions => ({
      name,
      type: 'varchar',
      length: String(length),
      isNullable,
    });
    await queryRunner.createTable(
      new Table({
        name: TABLE,
        columns: [
          { ...str('idempotency_key', 64), isPrimary: true },
          str('fingerprint', 64),
          str('virtual_account_id', 64),
          str('recipient_id', 64),
          str('amount', 32),
          str('currency', 8),
          { name: 'memo', type: 'text', isNullable: true },
          str('state', 16),
          str('payout_id', 64, true),
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
