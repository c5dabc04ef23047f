import { createHash } from 'node:crypto';
import type { DataSource } from 'typeorm';

/**
 * The PostgreSQL advisory-lock key of a job: a stable signed 64-bit number per name.
 *
 * The namespace is the reference app's, byte for byte: during a rolling upgrade a replica still
 * running the app's own lock and one running this package take the same key for the same job, so
 * they keep excluding each other. A different namespace would let both run a pass at once.
 */
export function partnerJobLockKey(name: string): string {
  return createHash('sha256')
    .update(`partner-payments-reference-app:${name}`)
    .digest()
    .readBigInt64BE(0)
    .toString();
}

/**
 * How often the connection holding a job's advisory lock (or the SQLite lease) is used while the
 * pass runs. A session left idle for the whole pass is what idle_session_timeout, a pooler or an
 * operator's pg_terminate_backend drops, and its lock with it, while the pass goes on: another
 * replica then runs the job at the same time. The heartbeat keeps the session from looking idle
 * and notices its loss within this period; the pass is then aborted (its AbortSignal).
 */
export const LOCK_HEARTBEAT_MS = 1_000;

/**
 * Server-side keepalive on a connection that holds a lock for a pass: when the holder's host
 * vanishes without FIN/RST, the server drops the session (and the lock) after about
 * 10 + 5 * 3 = 25 s, instead of the kernel default of 7200 + 9 * 75 s (2 h 11 min).
 */
export const HOLDER_KEEPALIVE_SQL =
  'SET tcp_keepalives_idle = 10; SET tcp_keepalives_interval = 5; SET tcp_keepalives_count = 3';

/**
 * Runs `beat` every LOCK_HEARTBEAT_MS until stopped (one at a time: a probe still waiting on a
 * silent network is not queued behind), and reports each failure. Answers the stop function.
 */
export function everyHeartbeat(beat: () => Promise<unknown>, onFailure: (error: Error) => void): () => void {
  let inFlight = false;
  const timer = setInterval(() => {
    if (inFlight) return;
    inFlight = true;
    beat().then(
      () => (inFlight = false),
      (error: unknown) => {
        inFlight = false;
        onFailure(error instanceof Error ? error : new Error(String(error)));
      },
    );
  }, LOCK_HEARTBEAT_MS);
  return () => clearInterval(timer);
}

/** Uses `runner`'s connection every heartbeat (`SELECT 1`) until stopped; reports its failures. */
export function keepConnectionBusy(
  runner: { query(sql: string): Promise<unknown> },
  onLost: (error: Error) => void,
): () => void {
  return everyHeartbeat(() => runner.query('SELECT 1'), onLost);
}

/** TypeORM's PostgreSQL query runner: released with an error, pg-pool closes the connection. */
interface PgQueryRunner {
  releasePostgresConnection(error?: Error): Promise<void>;
}

/**
 * Runs `run` holding the job's session advisory lock on a dedicated connection, kept busy every
 * heartbeat; answers `locked` at once when another session holds it. `run`'s signal aborts when
 * the connection is lost.
 */
export async function holdAdvisoryLock<R>(
  dataSource: DataSource,
  name: string,
  locked: R,
  run: (signal: AbortSignal) => Promise<R>,
): Promise<R> {
  const runner = dataSource.createQueryRunner();
  await runner.connect();
  /** Set when the unlock failed: the connection is then closed, not pooled, so its lock ends with it. */
  let unlockError: Error | undefined;
  try {
    await runner.query(HOLDER_KEEPALIVE_SQL);
    const key = partnerJobLockKey(name);
    const [row]: Array<{ locked: boolean }> = await runner.query(
      'SELECT pg_try_advisory_lock($1::bigint) AS locked',
      [key],
    );
    if (!row?.locked) return locked;
    const lost = new AbortController();
    const stop = keepConnectionBusy(runner, (error) => {
      if (!lost.signal.aborted)
        lost.abort(
          new Error(`job ${name}: the connection holding its lock was lost (${error.message}); pass aborted`),
        );
    });
    try {
      return await run(lost.signal);
    } finally {
      stop();
      // Always unlocked, even after a lost heartbeat: a probe can fail (a cancelled statement)
      // while the session and its lock live on, and a pooled session still holding it would keep
      // the job locked on every replica. If the unlock fails too, the session is closed instead.
      unlockError = await runner.query('SELECT pg_advisory_unlock($1::bigint)', [key]).then(
        () => undefined,
        (error: unknown) => (error instanceof Error ? error : new Error(String(error))),
      );
    }
  } finally {
    if (unlockError) await (runner as unknown as PgQueryRunner).releasePostgresConnection(unlockError);
    else await runner.release();
  }
}
