import {
  Table,
  TableIndex,
  type MigrationInterface,
  type QueryRunner,
  type TableColumnOptions,
} from 'typeorm';

/**
 * The whole schema, written once for both databases through TypeORM's schema API (no raw DDL),
 * so the same checked-in migration runs on SQLite and on PostgreSQL. Timestamps are timestamptz
 * on PostgreSQL (an instant, whatever the server's time zone) and UTC text on SQLite.
 */
export class InitialSchema1763794800000 implements MigrationInterface {
  name = 'InitialSchema1763794800000';

  async up(queryRunner: QueryRunner): Promise<void> {
    const ts = queryRunner.connection.options.type === 'postgres' ? 'timestamptz' : 'datetime';
    const str = (
      name: string,
      length: number,
      extra: Partial<TableColumnOptions> = {},
    ): TableColumnOptions => ({
      name,
      type: 'varchar',
      length: String(length),
      isNullable: false,
      ...extra,
    });
    const opt = (name: string, length: number): TableColumnOptions => str(name, length, { isNullable: true });
    const text = (name: string, isNullable = true): TableColumnOptions => ({
      name,
      type: 'text',
      isNullable,
    });
    const time = (name: string, isNullable = true): TableColumnOptions => ({ name, type: ts, isNullable });
    const int = (name: string, def: number): TableColumnOptions => ({
      name,
      type: 'integer',
      default: def,
      isNullable: false,
    });
    const pk = (name: string, length: number): TableColumnOptions => str(name, length, { isPrimary: true });

    await queryRunner.createTable(
      new Table({
        name: 'webhook_inbox',
        columns: [
          pk('event_id', 191),
          str('event_name', 200),
          str('envelope', 8),
          text('raw_body', false),
          time('received_at', false),
          str('state', 16, { default: "'pending'" }),
          int('attempts', 0),
          text('last_error'),
          time('processed_at'),
          time('next_attempt_at'),
        ],
        indices: [{ name: 'idx_webhook_inbox_due', columnNames: ['state', 'next_attempt_at'] }],
      }),
    );
    await queryRunner.createTable(
      new Table({
        name: 'payouts',
        columns: [
          pk('payout_id', 64),
          opt('virtual_account_id', 64),
          opt('recipient_id', 64),
          opt('user_id', 64),
          opt('amount', 32),
          opt('currency', 8),
          opt('idempotency_key', 64),
          str('status', 32),
          opt('previous_status', 32),
          opt('reference_number', 128),
          opt('error_code', 128),
          text('review_reason'),
          str('last_source', 16),
          time('created_at', false),
          time('updated_at', false),
          time('last_checked_at'),
          time('next_check_at'),
          int('check_failures', 0),
          int('version', 1),
        ],
        indices: [{ name: 'idx_payouts_reconcile', columnNames: ['status', 'last_checked_at'] }],
      }),
    );
    // A unique index (not a constraint) so both databases allow many NULL keys (payouts first seen by webhook).
    await queryRunner.createIndex(
      'payouts',
      new TableIndex({
        name: 'uq_payouts_idempotency_key',
        columnNames: ['idempotency_key'],
        isUnique: true,
      }),
    );
    await queryRunner.createTable(
      new Table({
        name: 'payout_requests',
        columns: [
          pk('idempotency_key', 64),
          str('fingerprint', 64),
          str('virtual_account_id', 64),
          str('recipient_id', 64),
          str('amount', 32),
          str('currency', 8),
          str('state', 16),
          opt('payout_id', 64),
          text('last_error'),
          time('created_at', false),
          time('updated_at', false),
        ],
      }),
    );
    await queryRunner.createTable(
      new Table({
        name: 'partner_users',
        columns: [
          pk('user_id', 64),
          opt('status', 32),
          opt('previous_status', 32),
          text('rejection_reasons'),
          opt('liveness_result', 64),
          text('metadata'),
          str('last_event_name', 200),
          time('updated_at', false),
        ],
      }),
    );
    await queryRunner.createTable(
      new Table({
        name: 'virtual_accounts',
        columns: [
          pk('virtual_account_id', 64),
          opt('user_id', 64),
          opt('status', 32),
          opt('bank', 64),
          opt('account_number_last4', 4),
          text('metadata'),
          time('updated_at', false),
        ],
      }),
    );
    await queryRunner.createTable(
      new Table({
        name: 'deposits',
        columns: [
          pk('deposit_id', 64),
          opt('virtual_account_id', 64),
          opt('user_id', 64),
          opt('amount', 32),
          opt('currency', 8),
          opt('status', 32),
          str('kind', 16),
          opt('payment_rail', 32),
          opt('sender_name', 200),
          time('occurred_at'),
          time('updated_at', false),
        ],
      }),
    );
    await queryRunner.createTable(
      new Table({
        name: 'api_version_pins',
        columns: [
          pk('account', 64),
          str('configured_version', 16),
          opt('pinned_version', 16),
          opt('previous_version', 16),
          opt('last_outcome', 16),
          opt('refused_target', 16),
          text('last_error'),
          time('pinned_at'),
          time('updated_at', false),
        ],
      }),
    );
    await queryRunner.createTable(
      new Table({
        name: 'job_locks',
        columns: [
          pk('name', 64),
          opt('holder', 128),
          time('last_started_at'),
          time('last_finished_at'),
          opt('last_outcome', 16),
          text('last_error'),
          int('runs', 0),
        ],
      }),
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    for (const table of [
      'job_locks',
      'api_version_pins',
      'deposits',
      'virtual_accounts',
      'partner_users',
      'payout_requests',
      'payouts',
      'webhook_inbox',
    ]) {
      await queryRunner.dropTable(table, true);
    }
  }
}
