import { AsyncLocalStorage } from 'node:async_hooks';
import type { DataSource, EntityManager } from 'typeorm';
import type { DatabaseKind } from './database-url.util';

interface Scope {
  manager: EntityManager;
  inTransaction: boolean;
}

/**
 * The one way the app touches the database.
 *
 * - `transaction(work)` runs work in one transaction and makes its EntityManager the ambient one
 *   (AsyncLocalStorage): code called from inside (projection handlers, inbox.markProcessed) joins
 *   it through `run`/`transaction` without being passed the manager.
 * - On SQLite, TypeORM's better-sqlite3 driver has ONE connection: a statement issued while some
 *   other async flow has a transaction open would silently become part of it (and vanish on its
 *   rollback). So on SQLite every call is serialized through an in-process queue. On PostgreSQL
 *   each transaction has its own pooled connection and nothing is serialized.
 * - Never call the partner inside a transaction: HTTP latency would hold locks (and on SQLite the
 *   queue).
 */
export class UnitOfWork {
  readonly kind: DatabaseKind;
  private readonly scope = new AsyncLocalStorage<Scope>();
  private tail: Promise<unknown> = Promise.resolve();

  constructor(readonly dataSource: DataSource) {
    this.kind = dataSource.options.type === 'postgres' ? 'postgres' : 'sqlite';
  }

  /** The manager of the current transaction, if any. */
  currentTransaction(): EntityManager | undefined {
    const scope = this.scope.getStore();
    return scope?.inTransaction ? scope.manager : undefined;
  }

  async transaction<T>(work: (manager: EntityManager) => Promise<T>): Promise<T> {
    const outer = this.scope.getStore();
    if (outer?.inTransaction) return work(outer.manager);
    const open = (): Promise<T> =>
      this.dataSource.transaction((manager) =>
        this.scope.run({ manager, inTransaction: true }, () => work(manager)),
      );
    // Already holding the SQLite queue (inside `run`): do not queue behind ourselves.
    if (outer || this.kind === 'postgres') return open();
    return this.serialized(open);
  }

  /** One or more statements outside a transaction (or inside the current one). */
  async run<T>(work: (manager: EntityManager) => Promise<T>): Promise<T> {
    const outer = this.scope.getStore();
    if (outer) return work(outer.manager);
    const manager = this.dataSource.manager;
    if (this.kind === 'postgres') return work(manager);
    return this.serialized(() => this.scope.run({ manager, inTransaction: false }, () => work(manager)));
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
