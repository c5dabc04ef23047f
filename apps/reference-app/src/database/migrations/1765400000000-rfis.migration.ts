import {
  Table,
  TableIndex,
  type MigrationInterface,
  type QueryRunner,
  type TableColumnOptions,
} from 'typeorm';

/**
 * The RFI projection (rfis/): `rfis`, one row per RFI (evidence §7 parent fields), and
 * `rfi_items`, one row per item (spec 2.1) without its answer (rfi-item.entity.ts). Open RFIs are
 * listed by status and deadline and by user, items by their RFI in display order.
 */
export class Rfis1765400000000 implements MigrationInterface {
  name = 'Rfis1765400000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    const ts = queryRunner.connection.options.type === 'postgres' ? 'timestamptz' : 'datetime';
    const str = (name: string, length: number, isNullable = true): TableColumnOptions => ({
      name,
      type: 'varchar',
      length: String(length),
      isNullable,
    });
    const text = (name: string, isNullable = true): TableColumnOptions => ({
      name,
      type: 'text',
      isNullable,
    });
    const time = (name: string, isNullable = true): TableColumnOptions => ({ name, type: ts, isNullable });
    const flag = (name: string, def: boolean): TableColumnOptions => ({
      name,
      type: 'boolean',
      isNullable: false,
      default: def,
    });
    await queryRunner.createTable(
      new Table({
        name: 'rfis',
        columns: [
          { ...str('rfi_id', 64, false), isPrimary: true },
          str('user_id', 64),
          str('status', 32, false),
          flag('blocking', false),
          str('blocking_type', 32),
          str('blocking_ref', 64),
          time('due_at'),
          str('resolution_reason', 32),
          time('opened_at', false),
          flag('stale', true),
          time('read_at'),
          str('last_source', 16, false),
          time('updated_at', false),
        ],
      }),
    );
    await queryRunner.createIndex(
      'rfis',
      new TableIndex({ name: 'idx_rfis_status_due', columnNames: ['status', 'due_at'] }),
    );
    await queryRunner.createIndex(
      'rfis',
      new TableIndex({ name: 'idx_rfis_user', columnNames: ['user_id'] }),
    );
    await queryRunner.createTable(
      new Table({
        name: 'rfi_items',
        columns: [
          { ...str('item_id', 64, false), isPrimary: true },
          str('rfi_id', 64, false),
          { name: 'ordinal', type: 'integer', isNullable: false },
          text('prompt', false),
          str('answer_type', 32, false),
          text('answer_spec', false),
          str('target_key', 200),
          text('subject'),
          str('status', 32, false),
          text('documents', false),
          text('review_note'),
          time('answered_at'),
          time('returned_at'),
        ],
      }),
    );
    await queryRunner.createIndex(
      'rfi_items',
      new TableIndex({ name: 'idx_rfi_items_rfi', columnNames: ['rfi_id', 'ordinal'] }),
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.dropTable('rfi_items', true);
    await queryRunner.dropTable('rfis', true);
  }
}
