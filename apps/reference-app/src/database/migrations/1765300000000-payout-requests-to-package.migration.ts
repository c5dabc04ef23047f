import { Table, TableIndex, type MigrationInterface, type QueryRunner } from 'typeorm';

const OLD = 'payout_requests';
const NEW = 'partner_payout_requests';
/** Every column of both tables: the package's table is the app's, renamed (fingerprints unchanged). */
const COLUMNS = [
  'idempotency_key',
  'fingerprint',
  'virtual_account_id',
  'recipient_id',
  'amount',
  'currency',
  'memo',
  'state',
  'payout_id',
  'last_error',
  'attempts',
  'next_attempt_at',
  'created_at',
  'updated_at',
].join(', ');

/**
 * POST /payouts' requests move into @partner-payments/typeorm's outbox: every row of
 * payout_requests is copied, as stored, into partner_payout_requests (made by the package's
 * migration, which runs first), then the app's table is dropped. A pending row keeps its key,
 * body, fingerprint, attempts and next_attempt_at, so the caller's retry and the re-drive carry
 * on with it. A key present in both tables fails the migration (its transaction rolls back)
 * rather than losing either row.
 */
export class PayoutRequestsToPackage1765300000000 implements MigrationInterface {
  name = 'PayoutRequestsToPackage1765300000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    if (!(await queryRunner.hasTable(OLD))) return;
    await queryRunner.query(`INSERT INTO ${NEW} (${COLUMNS}) SELECT ${COLUMNS} FROM ${OLD}`);
    await queryRunner.dropTable(OLD);
  }

  /**
   * The app's table again, shaped as the package's (the same columns: the package's table is this
   * one, renamed), with the rows moved back.
   */
  async down(queryRunner: QueryRunner): Promise<void> {
    const current = await queryRunner.getTable(NEW);
    if (!current) throw new Error(`${NEW} is missing: nothing to move back`);
    await queryRunner.createTable(
      new Table({
        name: OLD,
        columns: current.columns.map((column) => column.clone()),
        indices: [
          new TableIndex({ name: 'idx_payout_requests_state_created', columnNames: ['state', 'created_at'] }),
        ],
      }),
    );
    await queryRunner.query(`INSERT INTO ${OLD} (${COLUMNS}) SELECT ${COLUMNS} FROM ${NEW}`);
    await queryRunner.query(`DELETE FROM ${NEW}`);
  }
}
