import type { MigrationInterface, QueryRunner } from 'typeorm';

/** The inbox's indexes on `state` before this migration (state first, every row in each). */
interface IndexSpec {
  name: string;
  columnNames: string[];
  where?: string;
}

const WHOLE: IndexSpec[] = [
  { name: 'idx_webhook_inbox_due', columnNames: ['state', 'next_attempt_at'] },
  { name: 'idx_webhook_inbox_processed', columnNames: ['state', 'processed_at'] },
  { name: 'idx_webhook_inbox_pending', columnNames: ['state', 'received_at', 'event_key'] },
];

/**
 * One partial index per state, each holding only the rows in that state (WHERE state = '...').
 * Every statement that reads by state names one state with `=`, the form both SQLite and
 * PostgreSQL match to a partial index (webhook_inbox's statements and counts; EXPLAIN checked).
 */
const PER_STATE: IndexSpec[] = [
  {
    name: 'idx_webhook_inbox_pending',
    columnNames: ['received_at', 'event_key'],
    where: "state = 'pending'",
  },
  { name: 'idx_webhook_inbox_due', columnNames: ['next_attempt_at'], where: "state = 'failed'" },
  { name: 'idx_webhook_inbox_dead', columnNames: ['received_at', 'event_key'], where: "state = 'dead'" },
  { name: 'idx_webhook_inbox_processed', columnNames: ['processed_at'], where: "state = 'processed'" },
];

/**
 * Issue 14 (webhook ingest on SQLite): each of the three (state, ...) indexes held every row, so a
 * delivery inserted an entry into all three and marking it processed moved it within all three
 * (three deletes and three inserts of index entries, plus the row). Measured on a SQLite file with
 * the ingest's batches (inserts of 40, processing batches of 13): 51-68 µs per insert and 39-52 µs
 * per processed mark before, 45-60 and 19-25 µs after. Now a delivery is inserted into the
 * pending index only, and processing moves it to the processed one; failed (due) and dead entries,
 * which are rare, have theirs. Rebuilding the indexes reads the table once, at the start that
 * runs this migration.
 */
export class InboxStateIndexes1764700000000 implements MigrationInterface {
  name = 'InboxStateIndexes1764700000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await replace(queryRunner, WHOLE, PER_STATE);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await replace(queryRunner, PER_STATE, WHOLE);
  }
}

/**
 * Plain SQL, the same on both databases: TypeORM's dropIndex looks the index up in the runner's
 * cached copy of the table, which on PostgreSQL does not see the indexes the earlier migrations
 * of the same run created ("Supplied index ... was not found").
 */
async function replace(queryRunner: QueryRunner, drop: IndexSpec[], create: IndexSpec[]): Promise<void> {
  for (const index of drop) await queryRunner.query(`DROP INDEX "${index.name}"`);
  for (const index of create) {
    const columns = index.columnNames.map((c) => `"${c}"`).join(', ');
    const where = index.where ? ` WHERE ${index.where}` : '';
    await queryRunner.query(`CREATE INDEX "${index.name}" ON "webhook_inbox" (${columns})${where}`);
  }
}
