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
 * Webhook ingest on SQLite: with three (state, ...) indexes holding every row, a delivery would
 * insert an entry into all three and marking it processed would move it within all three (three
 * deletes and three inserts of index entries, plus the row). Now a delivery is inserted into the
 * pending index only, and processing moves it to the processed one; failed (due) and dead entries,
 * which are rare, have theirs.
 *
 * PostgreSQL, where replicas of the old version keep taking deliveries while one of the new
 * version migrates (the partner does not retry a delivery answered 5xx, spec 6.1.4, and the
 * old replicas' intake gives up after INBOX_RECORD_TIMEOUT_MS, 10 s): nothing may lock the inbox
 * against writes for longer than a moment. So this migration runs outside a transaction
 * (`transaction = false`) and
 *  1. builds each new index under `<name>_new` with CREATE INDEX CONCURRENTLY, which locks neither
 *     reads nor writes, however large the inbox; one an operator already built that way (the
 *     documented statements) is used when it is valid and has exactly the final definition, any
 *     other `<name>_new` (a failed build leaves an invalid one; a UNIQUE one would refuse two
 *     entries processed at the same instant) is dropped and built again;
 *  2. swaps them in, in one short transaction: ACCESS EXCLUSIVE on webhook_inbox (the lock DROP
 *     INDEX needs; taken first, so no weaker lock is upgraded: that deadlocked against an old
 *     replica's claim in review), drop the (state, ...) indexes, rename. Its wait for the lock is
 *     bounded by lock_timeout (LOCK_TIMEOUT_MS): a queued ACCESS EXCLUSIVE request makes every
 *     later reader and writer of the table wait behind it, so it gives way and tries again
 *     (LOCK_ATTEMPTS), then fails the start with the reason; the indexes built stay for the next.
 * A start that stops between the two finds the `_new` indexes and goes on; one that stops after the
 * swap, before TypeORM records the migration, finds every index final and does nothing.
 * SQLite: drop, then create, in one transaction of its own (one writer, and the app does not serve
 * before its migrations ran). `down` (a revert, an operator's act) drops and rebuilds in one
 * transaction on both databases, the inbox locked for the builds (docs/reference-app/persistence.md,
 * Upgrading).
 */
export class InboxStateIndexes1764700000000 implements MigrationInterface {
  name = 'InboxStateIndexes1764700000000';
  /** CREATE INDEX CONCURRENTLY cannot run in a transaction block (see the class comment). */
  transaction = false;

  /** How long the swap waits for its lock before giving way, and how often it tries (tests shorten them). */
  static LOCK_TIMEOUT_MS = 2_000;
  static LOCK_ATTEMPTS = 30;
  static LOCK_RETRY_PAUSE_MS = 1_000;

  async up(queryRunner: QueryRunner): Promise<void> {
    if (queryRunner.connection.options.type !== 'postgres')
      return inTransaction(queryRunner, () => replace(queryRunner, WHOLE, PER_STATE));
    // An index build in progress on the table (an operator's prebuild from the docs, started a
    // moment before) would otherwise be found invalid, waited for by DROP INDEX, dropped and built
    // again. LOCK in SHARE UPDATE EXCLUSIVE waits for any build (each holds that mode until it
    // ends) without blocking reads or writes, takes no snapshot, and waits in the lock manager,
    // where a cycle through it is seen by the deadlock detector (a poll was not: review of af6932f).
    await inTransaction(queryRunner, () =>
      queryRunner.query('LOCK TABLE "webhook_inbox" IN SHARE UPDATE EXCLUSIVE MODE'),
    );
    const present = await postgresIndexes(queryRunner);
    for (const index of PER_STATE) {
      if (isFinal(present.get(index.name), index)) continue;
      const prebuiltName = `${index.name}${PREBUILT_SUFFIX}`;
      const prebuilt = present.get(prebuiltName);
      if (isFinal(prebuilt, index)) continue;
      if (prebuilt) await queryRunner.query(`DROP INDEX CONCURRENTLY IF EXISTS "${prebuiltName}"`);
      await queryRunner.query(concurrently(createSql(index, prebuiltName)));
    }
    await swapIn(queryRunner);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await inTransaction(queryRunner, () => replace(queryRunner, PER_STATE, WHOLE));
  }
}

/** Step 2 on PostgreSQL: the built `<name>_new` indexes take their final names under a bounded lock. */
async function swapIn(queryRunner: QueryRunner): Promise<void> {
  const { LOCK_TIMEOUT_MS, LOCK_ATTEMPTS, LOCK_RETRY_PAUSE_MS } = InboxStateIndexes1764700000000;
  for (let attempt = 1; ; attempt++) {
    try {
      await inTransaction(queryRunner, async () => {
        await queryRunner.query(`SET LOCAL lock_timeout = ${Math.max(1, Math.round(LOCK_TIMEOUT_MS))}`);
        await queryRunner.query('LOCK TABLE "webhook_inbox" IN ACCESS EXCLUSIVE MODE');
        const present = await postgresIndexes(queryRunner);
        for (const index of PER_STATE) {
          if (isFinal(present.get(index.name), index)) continue;
          const prebuiltName = `${index.name}${PREBUILT_SUFFIX}`;
          if (!isFinal(present.get(prebuiltName), index))
            throw new Error(`index ${prebuiltName} is missing or invalid; start again to rebuild it`);
          await queryRunner.query(`DROP INDEX IF EXISTS "${index.name}"`);
          await queryRunner.query(`ALTER INDEX "${prebuiltName}" RENAME TO "${index.name}"`);
        }
      });
      return;
    } catch (error) {
      // 55P03 lock_not_available: lock_timeout expired; the transaction is rolled back, nothing changed.
      if ((error as { code?: string }).code !== '55P03') throw error;
      if (attempt >= LOCK_ATTEMPTS)
        throw new Error(
          `InboxStateIndexes1764700000000: webhook_inbox stayed locked by other sessions through ${attempt} ` +
            `attempts of ${LOCK_TIMEOUT_MS} ms; the new indexes are built (<name>${PREBUILT_SUFFIX}), start again to swap them in`,
        );
      await new Promise((resolve) => setTimeout(resolve, LOCK_RETRY_PAUSE_MS));
    }
  }
}

async function inTransaction(queryRunner: QueryRunner, work: () => Promise<unknown>): Promise<void> {
  if (queryRunner.isTransactionActive) {
    await work();
    return;
  }
  await queryRunner.startTransaction();
  try {
    await work();
    await queryRunner.commitTransaction();
  } catch (error) {
    await queryRunner.rollbackTransaction();
    throw error;
  }
}

function concurrently(sql: string): string {
  return sql.replace('CREATE INDEX', 'CREATE INDEX CONCURRENTLY');
}

/** A valid index with exactly `index`'s definition (PostgreSQL). */
function isFinal(found: { definition: string; valid: boolean } | undefined, index: IndexSpec): boolean {
  return found !== undefined && found.valid && found.definition === definition(index);
}

/** CREATE INDEX for `index` under `name` (its own by default): the same SQL on both databases. */
export function createSql(index: IndexSpec, name = index.name): string {
  const columns = index.columnNames.map((c) => `"${c}"`).join(', ');
  return `CREATE INDEX "${name}" ON "webhook_inbox" (${columns})${index.where ? ` WHERE ${index.where}` : ''}`;
}

/** The statements docs/reference-app/persistence.md (Upgrading) gives an operator to build the indexes beforehand. */
export function prebuildConcurrentlySql(): string[] {
  return PER_STATE.map((index) => concurrently(createSql(index, `${index.name}${PREBUILT_SUFFIX}`)));
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
