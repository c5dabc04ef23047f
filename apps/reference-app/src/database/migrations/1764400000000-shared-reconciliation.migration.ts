import { Table, TableColumn, TableIndex, type MigrationInterface, type QueryRunner } from 'typeorm';

/**
 * Replicas share the payout reconciliation and the partner's rate budget.
 * - `reconciliation_passes`: one row per job naming the pass in progress, which every replica
 *   joins, and the list pages handed out to them (a counter, one atomic UPDATE per page);
 *   `reconciliation_participants`: who takes part in it, to tell a live pass from an abandoned one.
 * - `payouts.resource_read_at`: when reconciliation last read the payout by GET (the list rows lack
 *   error_code and reference_number, spec 6.4.4: a terminal payout still lacking them is read once).
 * - `partner_rate_budget`: the token bucket of one partner account, shared by every replica
 *   (evidence §1: 20 requests/s, burst 50, per account).
 */
export class SharedReconciliation1764400000000 implements MigrationInterface {
  name = 'SharedReconciliation1764400000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    const postgres = queryRunner.connection.options.type === 'postgres';
    const ts = postgres ? 'timestamptz' : 'datetime';
    const time = (name: string) => ({ name, type: ts, isNullable: true });
    const int = (name: string, def: number) => ({ name, type: 'integer', default: def, isNullable: false });
    await queryRunner.createTable(
      new Table({
        name: 'reconciliation_passes',
        columns: [
          { name: 'job', type: 'varchar', length: '64', isPrimary: true },
          { name: 'pass_id', type: 'varchar', length: '36', isNullable: true },
          time('tick'),
          time('started_at'),
          time('heartbeat_at'),
          time('finished_at'),
          { name: 'from_date', type: 'varchar', length: '10', isNullable: true },
          int('next_page', 1),
          int('pages_in_flight', 0),
          int('list_done', 0),
        ],
      }),
    );
    await queryRunner.createTable(
      new Table({
        name: 'reconciliation_participants',
        columns: [
          { name: 'pass_id', type: 'varchar', length: '36', isPrimary: true },
          { name: 'holder', type: 'varchar', length: '64', isPrimary: true },
          { name: 'job', type: 'varchar', length: '64', isNullable: false },
          { name: 'joined_at', type: ts, isNullable: false },
        ],
      }),
    );
    await queryRunner.addColumn('payouts', new TableColumn(time('resource_read_at')));
    // Until now every check read the resource: a payout checked was read then.
    await queryRunner.query('UPDATE payouts SET resource_read_at = last_checked_at');
    // The list window is chosen from payouts per day since the oldest one to check.
    await queryRunner.createIndex(
      'payouts',
      new TableIndex({ name: 'idx_payouts_created_at', columnNames: ['created_at'] }),
    );
    await queryRunner.createTable(
      new Table({
        name: 'partner_rate_budget',
        columns: [
          { name: 'account_key', type: 'varchar', length: '64', isPrimary: true },
          { name: 'tokens', type: postgres ? 'double precision' : 'real', isNullable: false },
          { name: 'refilled_ms', type: postgres ? 'bigint' : 'integer', isNullable: false },
        ],
      }),
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.dropTable('partner_rate_budget', true);
    await queryRunner.dropIndex('payouts', 'idx_payouts_created_at');
    await queryRunner.dropColumn('payouts', 'resource_read_at');
    await queryRunner.dropTable('reconciliation_participants', true);
    await queryRunner.dropTable('reconciliation_passes', true);
  }
}
