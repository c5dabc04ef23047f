import { Table, type MigrationInterface, type QueryRunner, type TableColumnOptions } from 'typeorm';

const TABLE = 'api_version_pins';

/**
 * api_version_pins, as PartnerVersionPinEntity maps it, created when absent. A table that exists
 * already (the reference app's own migrations made it, with this name and these columns) is left
 * as it is, rows and all: a stored pin, or a refused target, carries over, so an upgraded app is
 * not pinned again and does not ask again for a target the partner refused. Timestamps are
 * timestamptz on PostgreSQL (an instant, whatever the server's time zone) and UTC text on SQLite.
 */
export class PartnerVersionPins1765220000000 implements MigrationInterface {
  name = 'PartnerVersionPins1765220000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    if (await queryRunner.hasTable(TABLE)) return;
    const ts = queryRunner.connection.options.type === 'postgres' ? 'timestamptz' : 'datetime';
    const str = (name: string, length: number, isNullable = true): TableColumnOptions => ({
      name,
      type: 'varchar',
      length: String(length),
      isNullable,
    });
    await queryRunner.createTable(
      new Table({
        name: TABLE,
        columns: [
          { ...str('account', 64, false), isPrimary: true },
          str('configured_version', 16, false),
          str('pinned_version', 16),
          str('previous_version', 16),
          str('last_outcome', 16),
          str('refused_target', 16),
          { name: 'last_error', type: 'text', isNullable: true },
          { name: 'pinned_at', type: ts, isNullable: true },
          { name: 'updated_at', type: ts, isNullable: false },
        ],
      }),
    );
  }

  /** Drops nothing: the table may be older than this migration, and its row is the account's pin. */
  async down(): Promise<void> {}
}
