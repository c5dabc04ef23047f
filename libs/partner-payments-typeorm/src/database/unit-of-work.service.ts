import { AsyncLocalStorage } from 'node:async_hooks';
import type { DataSource, EntityManager } from 'typeorm';
import type { PartnerDatabaseKind } from './sql-dialect.util';

/** The part of better-sqlite3's Database used here. */
interface SqliteConnection {
  readonly inTransaction: boolean;
  exec(source: string): unknown;
  pragma(source: string, options?: { simple: boolean }): unknown;
}

/** PRAGMA synchronous reads FULL as 2. */
const SQLITE_SYNC_FULL = 2;

interface Scope {
  manager: EntityManager;
  inTransaction: boolean;
  /**
   * Set once its work has settled. A callback the work left behind (a timer, an unawaited promise)
   * still carries the scope; ended, it is ignored there: the manager's transaction is over, and on
   * SQLite a statement on it would skip the queue and land in whatever transaction is open then.
   */
  ended: boolean;
}

/**
 * How a transaction's commit reaches the disk.
 * - 'full' (default): the commit returns once it is on disk (SQLite synchronous=FULL with WAL;
 *   PostgreSQL synchronous_commit on).
 * - 'relaxed': the commit returns once it is in the database's log, which the next full commit
 *   (or the database's own WAL writer, within ~3 × wal_writer_delay on PostgreSQL) flushes. The
 *   database stays consistent and a crash of the APP loses nothing; a power loss or an OS/server
 *   crash may roll back the last relaxed commits whole (never half: WAL keeps commit order). Only
 *   for work that is redone from durable state when lost: the inbox's processing, whose entry stays
 *   'pending' and is processed again (handlers run at least once, spec 6.1.4).
 */
export type CommitDurability = 'full' | 'relaxed';

export interface TransactionOptions {
  durability?: CommitDurability;
}

/**
 * How your code and the package share the DataSource. Inject it and write through it.
 *
 * - `transaction(work)` runs work in one transaction and makes its EntityManager the ambient one
 *   (AsyncLocalStorage): code called from inside (your `@OnPartnerEvent` handlers run by the
 *   inbox, the inbox's processed mark) joins it through `run`/`transaction` without being passed
 *   the manager, so a handler's writes and the processed mark commit together.
 * - On SQLite, TypeORM's better-sqlite3 driver has ONE connection: a statement issued while some
 *   other async flow has a transaction open would silently become part of it (and vanish on its
 *   rollback). So on SQLite every call is serialized through an in-process queue. On PostgreSQL
 *   each transaction has its own pooled connection and nothing is serialized.
 * - Never call the partner inside a transaction: HTTP latency would hold locks (and on SQLite the
 *   queue).
 */
export class PartnerUnitOfWork {
  readonly kind: PartnerDatabaseKind;
  private readonly scope = new AsyncLocalStorage<Scope>();
  private tail: Promise<unknown> = Promise.resolve();

  constructor(readonly dataSource: DataSource) {
    this.kind = dataSource.options.type === 'postgres' ? 'postgres' : 'sqlite';
  }

  /** The manager of the current transaction, if any. */
  currentTransaction(): EntityManager | undefined {
    const scope = this.live();
    return scope?.inTransaction ? scope.manager : undefined;
  }

  /** Whether this async flow is inside `run` or `transaction` (their work not settled yet). */
  inUnitOfWork(): boolean {
    return this.live() !== undefined;
  }

  /**
   * `work` run through `within` (a function bound to another async context: a queued caller's
   * trace and log context) while keeping this unit of work's current scope, so what `work`
   * writes joins the transaction open here, not the one (if any) of the context it was bound in.
   */
  keepScope<T>(within: (work: () => T) => T, work: () => T): T {
    const scope = this.live();
    return within(scope ? () => this.scope.run(scope, work) : work);
  }

  /**
   * `work` in one transaction. A call inside a transaction joins it (and its durability: the
   * outermost transaction's commit is the one that counts).
   */
  async transaction<T>(
    work: (manager: EntityManager) => Promise<T>,
    options: TransactionOptions = {},
  ): Promise<T> {
    const outer = this.live();
    if (outer?.inTransaction) return work(outer.manager);
    const relaxed = options.durability === 'relaxed';
    const inScope = (manager: EntityManager): Promise<T> => this.within(manager, true, work);
    if (this.kind === 'postgres') {
      if (!relaxed) return this.dataSource.transaction(inScope);
      return this.dataSource.transaction(async (manager) => {
        // SET LOCAL: this transaction only; the connection goes back to the pool as it was.
        await manager.query('SET LOCAL synchronous_commit = off');
        return inScope(manager);
      });
    }
    const open = (): Promise<T> =>
      relaxed
        ? this.withSqliteSync('NORMAL', () => this.dataSource.transaction(inScope))
        : this.dataSource.transaction(inScope);
    // Already holding the SQLite queue (inside `run`): do not queue behind ourselves.
    if (outer) return open();
    return this.serialized(open);
  }

  /**
   * SQLite sets its sync level per connection and refuses to change it inside a transaction, so
   * it is set around the transaction, while this flow holds the one connection (the queue).
   * WAL with synchronous=NORMAL skips the fsync at commit; the next FULL commit's fsync of the
   * same log file makes it durable too. FULL is put back whatever happened, and checked: a
   * connection left at NORMAL would record deliveries without an fsync before their 2xx.
   */
  private async withSqliteSync<T>(level: 'NORMAL', task: () => Promise<T>): Promise<T> {
    const db = (this.dataSource.driver as unknown as { databaseConnection: SqliteConnection })
      .databaseConnection;
    db.pragma(`synchronous = ${level}`);
    try {
      return await task();
    } finally {
      restoreFullSync(db);
    }
  }

  /** One or more statements outside a transaction (or inside the current one). */
  async run<T>(work: (manager: EntityManager) => Promise<T>): Promise<T> {
    const outer = this.live();
    if (outer) return work(outer.manager);
    const manager = this.dataSource.manager;
    if (this.kind === 'postgres') return work(manager);
    return this.serialized(() => this.within(manager, false, work));
  }

  /** The current scope, unless its work has settled (Scope.ended). */
  private live(): Scope | undefined {
    const scope = this.scope.getStore();
    return scope && !scope.ended ? scope : undefined;
  }

  private async within<T>(
    manager: EntityManager,
    inTransaction: boolean,
    work: (manager: EntityManager) => Promise<T>,
  ): Promise<T> {
    const scope: Scope = { manager, inTransaction, ended: false };
    try {
      return await this.scope.run(scope, () => work(manager));
    } finally {
      scope.ended = true;
    }
  }

  private serialized<T>(task: () => Promise<T>): Promise<T> {
    const result = this.tail.then(task, task);
    this.tail = result.then(
      () => undefined,
      () => undefined,
    );
    return result;
  }
}

/** FULL (data-source.options.ts) back on the connection; throws when it cannot be. */
function restoreFullSync(db: SqliteConnection): void {
  // TypeORM rolls back a failed transaction; should one still be open, the level cannot change.
  if (db.inTransaction) db.exec('ROLLBACK');
  db.pragma('synchronous = FULL');
  const now = db.pragma('synchronous', { simple: true });
  if (now !== SQLITE_SYNC_FULL) {
    throw new Error(`SQLite synchronous is ${String(now)} after a relaxed transaction, not FULL (2)`);
  }
}
