import { everyHeartbeat } from './advisory-lock.util';
import type { JobLockRows } from './job-lock-rows.store';

export interface SqliteLease {
  /** This service instance's name on the lease. */
  holder: string;
  /** How long the lease lasts without renewal. */
  leaseMs: number;
}

/**
 * Runs `run` holding the job's lease in job_locks; answers `locked` at once when another process
 * holds a lease that has not lapsed. The lease is renewed every heartbeat. `run`'s signal aborts
 * when a renewal finds the lease taken by another (it lapsed: this process was stalled longer than
 * the lease), or when renewals kept failing until the last one granted ran out. The lease is given
 * back at the end; if that fails, it lapses on its own.
 */
export async function holdSqliteLease<R>(
  rows: JobLockRows,
  name: string,
  lease: SqliteLease,
  locked: R,
  run: (signal: AbortSignal) => Promise<R>,
): Promise<R> {
  const now = Date.now();
  let grantedUntil = now + lease.leaseMs;
  if (!(await rows.takeLease(name, lease.holder, new Date(now), new Date(grantedUntil)))) return locked;
  const lost = new AbortController();
  const abort = (why: string) => {
    if (!lost.signal.aborted) lost.abort(new Error(`job ${name}: ${why}; pass aborted`));
  };
  const stop = everyHeartbeat(
    async () => {
      const until = Date.now() + lease.leaseMs;
      if (await rows.renewLease(name, lease.holder, new Date(until))) grantedUntil = until;
      else abort('its lease was taken by another process');
    },
    // A renewal that fails (the file busy with another process's write) is tried again at the
    // next beat; the lease already granted still holds until it runs out.
    (error) => {
      if (Date.now() >= grantedUntil) abort(`its lease ran out while renewals failed (${error.message})`);
    },
  );
  try {
    return await run(lost.signal);
  } finally {
    stop();
    await rows.releaseLease(name, lease.holder).catch(() => undefined);
  }
}
