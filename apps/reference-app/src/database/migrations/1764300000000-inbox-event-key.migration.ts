import { Table, type MigrationInterface, type QueryRunner, type TableColumnOptions } from 'typeorm';
import { inboxEventKey, toStoredText } from '@partner-payments/typeorm';
import { placeholders } from '@partner-payments/typeorm/sql';

const OLD = 'webhook_inbox_pre_event_key';
const BATCH = 500;
const COPIED = [
  'envelope',
  'raw_body',
  'received_at',
  'state',
  'attempts',
  'last_error',
  'processed_at',
  'next_attempt_at',
] as const;

/**
 * Keyed on data.event_id itself, a varchar(191), with the event name in a varchar(200), the inbox
 * could not store authentic events with a longer id or name, or with U+0000 in them, on
 * PostgreSQL, and the partner never re-sends (spec 6.1.4). The new table is keyed on a digest of the exact id
 * (inboxEventKey) and keeps the id and the name whole, as text, in a NUL-safe lossless form (toStoredText);
 * nothing a partner sends has a length limit but the body's. The rows are copied in batches with their keys
 * computed here; the table is rebuilt rather than altered because SQLite cannot change a primary key in
 * place.
 *
 * Bodies are sealed at rest, as they carry full account numbers (sealed_body, body_key: the key
 * id). Copied bodies stay in raw_body until the app seals them at its next start; run VACUUM afterwards to
 * drop the old pages and row versions that still hold them.
 */
export class InboxEventKey1764300000000 implements MigrationInterface {
  name = 'InboxEventKey1764300000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    const kind = queryRunner.connection.options.type === 'postgres' ? 'postgres' : 'sqlite';
    const ts = kind === 'postgres' ? 'timestamptz' : 'datetime';
    await queryRunner.dropIndex('webhook_inbox', 'idx_webhook_inbox_due');
    await queryRunner.renameTable('webhook_inbox', OLD);
    await queryRunner.createTable(
      new Table({
        name: 'webhook_inbox',
        columns: [
          column('event_key', 'varchar', { length: '64', isPrimary: true }),
          column('event_id', 'text'),
          column('event_name', 'text'),
          column('envelope', 'varchar', { length: '8' }),
          // Plain text only on rows copied from before bodies were sealed: the app's startup pass
          // seals them (it has the keys; a migration has none) and clears this column.
          column('raw_body', 'text', { isNullable: true }),
          column('sealed_body', 'text', { isNullable: true }),
          column('body_key', 'varchar', { length: '32', isNullable: true }),
          column('received_at', ts),
          column('state', 'varchar', { length: '16', default: "'pending'" }),
          column('attempts', 'integer', { default: 0 }),
          column('last_error', 'text', { isNullable: true }),
          column('processed_at', ts, { isNullable: true }),
          column('next_attempt_at', ts, { isNullable: true }),
        ],
        indices: [
          { name: 'idx_webhook_inbox_due', columnNames: ['state', 'next_attempt_at'] },
          { name: 'idx_webhook_inbox_processed', columnNames: ['state', 'processed_at'] },
          { name: 'idx_webhook_inbox_body_key', columnNames: ['body_key'] },
        ],
      }),
    );
    const targets = ['event_key', 'event_id', 'event_name', ...COPIED];
    const insert =
      `INSERT INTO webhook_inbox (${targets.join(', ')}) ` +
      `VALUES (${placeholders(kind, targets.length).join(', ')})`;
    const after = placeholders(kind, 1)[0];
    let last: string | null = null;
    for (;;) {
      // Keyset pagination on the old primary key: each batch starts after the last id copied.
      const rows: Array<Record<string, unknown> & { event_id: string; event_name: string }> =
        await queryRunner.query(
          `SELECT event_id, event_name, ${COPIED.join(', ')} FROM ${OLD}` +
            `${last === null ? '' : ` WHERE event_id > ${after}`} ORDER BY event_id LIMIT ${BATCH}`,
          last === null ? [] : [last],
        );
      for (const row of rows) {
        await queryRunner.query(insert, [
          inboxEventKey(row.event_id),
          toStoredText(row.event_id),
          toStoredText(row.event_name),
          ...COPIED.map((name) => row[name]),
        ]);
      }
      if (rows.length < BATCH) break;
      last = rows[rows.length - 1].event_id;
    }
    await queryRunner.dropTable(OLD);
  }

  /**
   * Not reversible: ids longer than 191 characters, or holding U+0000 or lone surrogates, have no
   * place in the old table. Restore a backup taken before the upgrade instead.
   */
  async down(): Promise<void> {
    throw new Error(
      'InboxEventKey1764300000000 cannot be reverted: the old inbox table cannot hold every id the new one holds; restore a backup',
    );
  }
}

function column(name: string, type: string, extra: Partial<TableColumnOptions> = {}): TableColumnOptions {
  return { name, type, isNullable: false, ...extra };
}
