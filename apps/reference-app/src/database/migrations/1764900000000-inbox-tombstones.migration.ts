import { Table, type MigrationInterface, type QueryRunner } from 'typeorm';

/**
 * webhook_inbox_tombstones: the key of every inbox entry the retention job deleted, so a signed
 * body replayed after its entry is gone is still a duplicate. The signature carries no time (spec
 * 6.1.3), so an old body stays valid for ever and the key must outlive the body. One row per
 * pruned event: the 64-character key and when its event was processed, nothing of the partner's.
 *
 * partner_users.event_at, virtual_accounts.event_at: the time of the newest event applied to the
 * row, where the event carries one (PartnerWebhookEvent.occurredAt); an event older than it changes
 * nothing. Nullable, no default: a change of the schema alone on both databases (no row rewritten).
 */
export class InboxTombstones1764900000000 implements MigrationInterface {
  name = 'InboxTombstones1764900000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    const ts = queryRunner.connection.options.type === 'postgres' ? 'timestamptz' : 'datetime';
    await queryRunner.createTable(
      new Table({
        name: 'webhook_inbox_tombstones',
        columns: [
          { name: 'event_key', type: 'varchar', length: '64', isPrimary: true, isNullable: false },
          { name: 'processed_at', type: ts, isNullable: true },
        ],
      }),
    );
    for (const table of ['partner_users', 'virtual_accounts'])
      await queryRunner.query(`ALTER TABLE "${table}" ADD COLUMN "event_at" ${ts} NULL`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    // Replays of pruned events become new again: their handlers run a second time.
    for (const table of ['partner_users', 'virtual_accounts'])
      await queryRunner.query(`ALTER TABLE "${table}" DROP COLUMN "event_at"`);
    await queryRunner.dropTable('webhook_inbox_tombstones');
  }
}
