import { DatabaseError, type Pool, type PoolClient, type QueryConfig, type QueryResultRow } from 'pg';

/** A statement of BoundedPoolQuery got no answer in time; its connection was destroyed. */
export class DatabaseQueryTimeoutError extends Error {
  constructor(
    readonly statement: string,
    readonly timeoutMs: number,
    options?: { cause?: unknown },
  ) {
    super(
      `PostgreSQL gave no answer to ${statement} within ${timeoutMs} ms; its connection was closed ` +
        'and the connections opened before it will not be reused for this statement',
    );
    this.name = 'DatabaseQueryTimeoutError';
    if (options?.cause !== undefined) Object.defineProperty(this, 'cause', { value: options.cause });
  }
}

/**
 * One statement on a connection of `pool`, autocommit, bounded in time: for a path that must
 * answer within a deadline (the webhook intake: the partner waits 30 s and never retries, spec
 * 6.1.4, [T1 REVISION-DOCS §2.4]) and that others queue behind (the inbox group commit has one
 * insert in flight). Not for long work (migrations, reconciliation), which keeps TypeORM's
 * unbounded statements.
 *
 * A connection that fails other than by a server-side error (pg's query_timeout, a reset) is
 * destroyed rather than returned to the pool (`release(error)`; pg force-closes a connection
 * whose query is still pending). The connections opened before that failure probably went the
 * same way (a failover, a network path that stopped forwarding without FIN or RST, where the
 * kernel would take many minutes to notice): when this path next takes one from the pool, it
 * closes it and takes another, so the next statement runs on a connection opened since, instead
 * of paying one more timeout per dead connection left idle in the pool.
 */
export class BoundedPoolQuery {
  /** Connections opened since the last failure; undefined while nothing has failed. */
  private trusted: WeakSet<PoolClient> | undefined;
  private watched: Pool | undefined;

  constructor(
    private readonly pool: () => Pool,
    private readonly timeoutMs: number,
  ) {}

  async query<R extends QueryResultRow>(config: QueryConfig & { name: string }): Promise<R[]> {
    const client = await this.checkout();
    // pg reads query_timeout per query (client.js), which @types/pg's QueryConfig leaves out.
    const bounded: QueryConfig & { query_timeout: number } = { ...config, query_timeout: this.timeoutMs };
    let result: R[];
    try {
      result = (await client.query<R>(bounded)).rows;
    } catch (error) {
      if (error instanceof DatabaseError) {
        client.release(); // the server answered: the connection is fine
        throw error;
      }
      this.trusted = new WeakSet();
      client.release(error instanceof Error ? error : true);
      if (error instanceof Error && /timeout/i.test(error.message)) {
        throw new DatabaseQueryTimeoutError(config.name, this.timeoutMs, { cause: error });
      }
      throw error;
    }
    client.release();
    return result;
  }

  /** A pool connection; after a failure, only one opened since (older ones are closed as met). */
  private async checkout(): Promise<PoolClient> {
    const pool = this.pool();
    if (this.watched !== pool) {
      this.watched = pool;
      pool.on('connect', (client: PoolClient) => this.trusted?.add(client));
    }
    for (;;) {
      const client = await pool.connect();
      if (!this.trusted || this.trusted.has(client)) return client;
      client.release(true);
    }
  }
}
