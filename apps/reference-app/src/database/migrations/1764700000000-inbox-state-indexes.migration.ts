import type { MigrationInterface, QueryRunner } from 'typeorm';

interface IndexSpec {
  name: string;
  columnNames: string[];
  where?: string;
}

/** The inbox's indexes on `state` before this migration (state first, every row in each). */
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

/** The name a new index is built under on PostgreSQL before it takes its final name. */
export const PREBUILT_SUFFIX = '_new';

/**
 * Issue 14 (webhook ingest on SQLite): each of the three (state, ...) indexes held every row, so a
 * delivery inserted an entry into all three and marking it processed moved it within all three
 * (three deletes and three inserts of index entries, plus the row). Measured on a SQLite file with
 * the ingest's batches (inserts of 40, processing batches of 13): 51-68 µs per insert and 39-52 µs
 * per processed mark before, 45-60 and 19-25 µs after. Now a delivery is inserted into the
 * pending index only, and processing moves it to the processed one; failed (due) and dead entries,
 * which are rare, have theirs.
 *
 * PostgreSQL, where replicas of the old version may still be taking deliveries while one of the
 * new version migrates: the migration first takes ACCESS EXCLUSIVE on webhook_inbox, the lock its
 * DROP INDEX needs anyway, so it never upgrades a weaker one (building first under SHARE, then
 * dropping, deadlocked against an old replica's claim, SELECT ... FOR UPDATE then UPDATE, caught
 * by review). Reads and writes of the inbox then wait until the migration commits. An index an
 * operator built beforehand under `<name>_new` with CREATE INDEX CONCURRENTLY (no lock on reads
 * or writes; the statements are in apps/reference-app/README.md, Upgrading) is renamed into place
 * when it is valid and has exactly the definition below, so with all four built the lock is held
 * for the drops and renames only; any other index is built inside the lock. SQLite: drop, then
 * create, in the migration's transaction (one writer, and the app does not serve before its
 * migrations ran).
 */
export class InboxStateIndexes1764700000000 implements MigrationInterface {
  name = 'InboxStateIndexes1764700000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    if (queryRunner.connection.options.type !== 'postgres') return replace(queryRunner, WHOLE, PER_STATE);
    await queryRunner.query('LOCK TABLE "webhook_inbox" IN ACCESS EXCLUSIVE MODE');
    const present = await postgresIndexes(queryRunner);
    for (const index of WHOLE) await queryRunner.query(`DROP INDEX IF EXISTS "${index.name}"`);
    for (const index of PER_STATE) {
      const prebuiltName = `${index.name}${PREBUILT_SUFFIX}`;
      const prebuilt = present.get(prebuiltName);
      if (prebuilt?.valid && prebuilt.definition === definition(index)) {
        await queryRunner.query(`ALTER INDEX "${prebuiltName}" RENAME TO "${index.name}"`);
        continue;
      }
      // Invalid (a CONCURRENTLY build that failed), UNIQUE, or another definition: built here.
      if (prebuilt) await queryRunner.query(`DROP INDEX "${prebuiltName}"`);
      await queryRunner.query(createSql(index));
    }
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await replace(queryRunner, PER_STATE, WHOLE);
  }
}

/** CREATE INDEX for `index` under `name` (its own by default): the same SQL on both databases. */
export function createSql(index: IndexSpec, name = index.name): string {
  const columns = index.columnNames.map((c) => `"${c}"`).join(', ');
  return `CREATE INDEX "${name}" ON "webhook_inbox" (${columns})${index.where ? ` WHERE ${index.where}` : ''}`;
}

/** The statements README's Upgrading section gives an operator to build the indexes beforehand. */
export function prebuildConcurrentlySql(): string[] {
  return PER_STATE.map((index) =>
    createSql(index, `${index.name}${PREBUILT_SUFFIX}`).replace('CREATE INDEX', 'CREATE INDEX CONCURRENTLY'),
  );
}

/**
 * How PostgreSQL prints the index's definition (pg_get_indexdef) without its name and the table's
 * schema (the search path decides that): a plain (not UNIQUE) btree on these columns, this state.
 */
function definition(index: IndexSpec): string {
  const columns = index.columnNames.join(', ');
  const state = /'(\w+)'/.exec(index.where ?? '')?.[1];
  return `CREATE INDEX ON webhook_inbox USING btree (${columns}) WHERE ((state)::text = '${state}'::text)`;
}

async function postgresIndexes(
  queryRunner: QueryRunner,
): Promise<Map<string, { definition: string; valid: boolean }>> {
  const rows: Array<{ name: string; def: string; valid: boolean }> = await queryRunner.query(
    'SELECT c.relname AS name, pg_get_indexdef(i.indexrelid) AS def, i.indisvalid AS valid ' +
      "FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid WHERE i.indrelid = 'webhook_inbox'::regclass",
  );
  return new Map(
    rows.map((r) => [
      r.name,
      {
        // 'CREATE [UNIQUE ]INDEX <name> ON <schema>.webhook_inbox USING ...', name and schema cut.
        definition: r.def.replace(
          /^(CREATE (?:UNIQUE )?INDEX) \S+ ON (?:\S+\.)?webhook_inbox /,
          '$1 ON webhook_inbox ',
        ),
        valid: r.valid,
      },
    ]),
  );
}

/** Drops `drop` and creates `create`, in the migration's transaction (SQLite; down on both). */
async function replace(queryRunner: QueryRunner, drop: IndexSpec[], create: IndexSpec[]): Promise<void> {
  for (const index of drop) await queryRunner.query(`DROP INDEX "${index.name}"`);
  for (const index of create) await queryRunner.query(createSql(index));
}
