import { Table, TableColumn, type MigrationInterface, type QueryRunner } from 'typeorm';
import { timestampColumnType } from '../database/migration-columns.util';

const TABLE = 'job_locks';

/**
 * job_locks, as PartnerJobLockEntity maps it. Creates the table, or, when it exists already (the
 * reference app's own migrations made it, with or without `checkpoint`), adds only the columns it
 * lacks and keeps its rows, so an existing database upgrades in place. Timestamps are timestamptz
 * on PostgreSQL (an instant, whatever the server's time zone) and UTC text on SQLite.
 */
export class PartnerJobLocks1765100000000 implements MigrationInterface {
  name = 'PartnerJobLocks1765100000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    const columns = jobLockColumns(timestampColumnType(queryRunner));
    const table = await queryRunner.getTable(TABLE);
    if (!table) {
      await queryRunner.createTable(new Table({ name: TABLE, columns }));
      return;
    }
    const missing = columns.filter((column) => !table.findColumnByName(column.name));
    // SQLite rebuilds the table for an added column; one call rebuilds it once.
    if (missing.length) await queryRunner.addColumns(TABLE, missing);
  }

  /** Drops the lease columns only: the rest of the table may be older than this migration. */
  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.dropColumns(TABLE, ['lease_holder', 'lease_until']);
  }
}

function jobLockColumns(timestamp: string): TableColumn[] {
  const text = (name: string, length?: number) =>
    new TableColumn({
      name,
      type: length ? 'varchar' : 'text',
      length: length ? String(length) : undefined,
      isNullable: true,
    });
  const time = (name: string) => new TableColumn({ name, type: timestamp, isNullable: true });
  return [
    new TableColumn({ name: 'name', type: 'varchar', length: '64', isPrimary: true, isNullable: false }),
    text('holder', 128),
    time('last_started_at'),
    time('last_finished_at'),
    text('last_outcome', 16),
    text('last_error'),
    new TableColumn({ name: 'runs', type: 'integer', isNullable: false, default: 0 }),
    text('checkpoint'),
    text('lease_holder', 160),
    time('lease_until'),
  ];
}
