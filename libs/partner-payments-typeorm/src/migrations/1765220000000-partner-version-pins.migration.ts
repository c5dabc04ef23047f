import { Table, type MigrationInterface, type QueryRunner } from 'typeorm';
import { timestampColumnType, varcharColumn } from '../database/migration-columns.util';

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
    const ts = timestampColumnType(queryRunner);
    await queryRunner.createTable(
      new Table({
        name: TABLE,
        columns: [
          { ...varcharColumn('account', 64), isPrimary: true },
          varcharColumn('configured_version', 16),
          varcharColumn('pinned_version', 16, true),
          varcharColumn('previous_version', 16, true),
          varcharColumn('last_outcome', 16, true),
          varcharColumn('refused_target', 16, true),
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
