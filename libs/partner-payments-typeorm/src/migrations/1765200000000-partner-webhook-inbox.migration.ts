import { Table, TableColumn, type MigrationInterface, type QueryRunner } from 'typeorm';
import { timestampColumnType } from '../database/migration-columns.util';

const INBOX = 'webhook_inbox';
const TOMBSTONES = 'webhook_inbox_tombstones';

/**
 * The inbox's indexes, as PartnerWebhookInboxEntity declares them: one partial index per state
 * (a delivery enters the pending one and processing moves it to another, instead of every row
 * sitting in each), read with `state = '...'`, the form SQLite and PostgreSQL both match to a
 * partial index; and body_key, which re-sealing after a key rotation reads.
 */
const INDEXES = [
  { name: 'idx_webhook_inbox_pending', columns: ['received_at', 'event_key'], where: "state = 'pending'" },
  { name: 'idx_webhook_inbox_due', columns: ['next_attempt_at'], where: "state = 'failed'" },
  { name: 'idx_webhook_inbox_dead', columns: ['received_at', 'event_key'], where: "state = 'dead'" },
  { name: 'idx_webhook_inbox_processed', columns: ['processed_at'], where: "state = 'processed'" },
  { name: 'idx_webhook_inbox_body_key', columns: ['body_key'] },
];

/**
 * webhook_inbox and webhook_inbox_tombstones, as PartnerWebhookInboxEntity and
 * PartnerWebhookInboxTombstoneEntity map them, each created with its indexes when absent. A table
 * that exists already (the reference app's own migrations made both, with these names, columns and
 * indexes) is left as it is, rows and all: an existing database upgrades in place with nothing
 * rewritten or locked. Timestamps are timestamptz on PostgreSQL (an instant, whatever the
 * server's time zone) and UTC text on SQLite.
 */
export class PartnerWebhookInbox1765200000000 implements MigrationInterface {
  name = 'PartnerWebhookInbox1765200000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    const ts = timestampColumnType(queryRunner);
    if (!(await queryRunner.hasTable(INBOX))) {
      await queryRunner.createTable(new Table({ name: INBOX, columns: inboxColumns(ts) }));
      for (const index of INDEXES) {
        const columns = index.columns.map((c) => `"${c}"`).join(', ');
        await queryRunner.query(
          `CREATE INDEX "${index.name}" ON "${INBOX}" (${columns})${index.where ? ` WHERE ${index.where}` : ''}`,
        );
      }
    }
    if (!(await queryRunner.hasTable(TOMBSTONES))) {
      await queryRunner.createTable(
        new Table({
          name: TOMBSTONES,
          columns: [
            new TableColumn({ name: 'event_key', type: 'varchar', length: '64', isPrimary: true }),
            new TableColumn({ name: 'processed_at', type: ts, isNullable: true }),
          ],
        }),
      );
    }
  }

  /**
   * Drops nothing: the tables may be older than this migration, and an inbox row is the only copy
   * of its event (the partner never re-sends a delivery, spec 6.1.4). Drop them by hand once empty.
   */
  async down(): Promise<void> {}
}

function inboxColumns(ts: string): TableColumn[] {
  const column = (name: string, type: string, extra: Partial<TableColumn> = {}) =>
    new TableColumn({ name, type, isNullable: false, ...extra });
  return [
    column('event_key', 'varchar', { length: '64', isPrimary: true }),
    column('event_id', 'text'),
    column('event_name', 'text'),
    column('envelope', 'varchar', { length: '8' }),
    // Plain text only on rows stored before bodies were sealed (the reference app's older rows).
    column('raw_body', 'text', { isNullable: true }),
    column('sealed_body', 'text', { isNullable: true }),
    column('body_key', 'varchar', { length: '32', isNullable: true }),
    column('received_at', ts),
    column('state', 'varchar', { length: '16', default: "'pending'" }),
    column('attempts', 'integer', { default: 0 }),
    column('last_error', 'text', { isNullable: true }),
    column('processed_at', ts, { isNullable: true }),
    column('next_attempt_at', ts, { isNullable: true }),
  ];
}
