import { PartnerJobLockEntity, PartnerJobLockService } from '@partner-payments/typeorm';
import {
  openPackageDatabase,
  PACKAGE_DATABASE_KINDS,
  type PackageDatabase,
} from './typeorm-database.fixture';

// Boots real servers and databases; jest.config.js's per-project testTimeout is not applied by Jest.
jest.setTimeout(30_000);

function deferred(): { promise: Promise<void>; resolve: () => void } {
  let resolve!: () => void;
  const promise = new Promise<void>((r) => (resolve = r));
  return { promise, resolve };
}

describe.each(PACKAGE_DATABASE_KINDS)('PartnerJobLockService on %s', (kind) => {
  let db: PackageDatabase;
  let replicaA: PartnerJobLockService;
  let replicaB: PartnerJobLockService;

  beforeAll(async () => {
    db = await openPackageDatabase(kind, 'locks');
    replicaA = new PartnerJobLockService(db.dataSource, { holder: 'replica-a' });
    // A second DataSource: PostgreSQL, a second pool as a second replica has; SQLite, a second
    // connection to the file as a second process has (the lease keeps them apart).
    replicaB = new PartnerJobLockService(await db.openAnother(), { holder: 'replica-b' });
  });
  afterAll(async () => db?.close());

  it('runs a pass once while another is in progress, then lets the next pass run', async () => {
    const gate = deferred();
    let runs = 0;
    const first = replicaA.runExclusive('reconcile', async () => {
      runs++;
      await gate.promise;
      return 'first';
    });
    // The first holds the lock once its work runs (a fixed pause lost that race on a loaded machine).
    while (runs === 0) await new Promise((r) => setTimeout(r, 10));
    expect(await replicaB.runExclusive('reconcile', async () => ++runs)).toEqual({
      ran: false,
      reason: 'locked',
    });
    gate.resolve();
    expect(await first).toEqual({ ran: true, result: 'first' });
    expect(await replicaB.runExclusive('reconcile', async () => ++runs)).toEqual({ ran: true, result: 2 });
    expect(runs).toBe(2);
    const row = await db.dataSource
      .getRepository(PartnerJobLockEntity)
      .findOneByOrFail({ name: 'reconcile' });
    expect(row).toMatchObject({
      runs: 2,
      lastOutcome: 'ok',
      holder: 'replica-b',
    });
  });

  it('does not block a different job', async () => {
    const gate = deferred();
    const first = replicaA.runExclusive('pin-version', () => gate.promise);
    await new Promise((r) => setTimeout(r, 50));
    expect(await replicaB.runExclusive('redeliver-inbox', async () => 'other')).toEqual({
      ran: true,
      result: 'other',
    });
    gate.resolve();
    await first;
  });

  it('runs a cron tick once across replicas, even when the passes do not overlap', async () => {
    const tick = new Date(Math.floor(Date.now() / 1000) * 1000);
    let runs = 0;
    expect(await replicaA.runExclusive('tick-job', async () => ++runs, { tick })).toEqual({
      ran: true,
      result: 1,
    });
    // Replica B's cron fires for the same tick after A's short pass already ended.
    expect(await replicaB.runExclusive('tick-job', async () => ++runs, { tick })).toEqual({
      ran: false,
      reason: 'tick-done',
    });
    // The next tick runs; a run asked for by hand (no tick) always runs.
    const next = new Date(tick.getTime() + 60_000);
    expect(await replicaB.runExclusive('tick-job', async () => ++runs, { tick: next })).toMatchObject({
      ran: true,
    });
    expect(await replicaA.runExclusive('tick-job', async () => ++runs)).toMatchObject({ ran: true });
    expect(runs).toBe(3);
  });

  it('releases the lock and records the error when the job throws', async () => {
    await expect(
      replicaA.runExclusive('flaky', async () => Promise.reject(new Error('partner down'))),
    ).rejects.toThrow('partner down');
    const row = await db.dataSource.getRepository(PartnerJobLockEntity).findOneByOrFail({ name: 'flaky' });
    expect(row).toMatchObject({ lastOutcome: 'error', lastError: 'partner down' });
    expect(await replicaB.runExclusive('flaky', async () => 'recovered')).toEqual({
      ran: true,
      result: 'recovered',
    });
  });
});

describe('PartnerJobLockService on postgres when the lock connection is lost', () => {
  const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
  let db: PackageDatabase;
  beforeAll(async () => (db = await openPackageDatabase('postgres', 'lockloss')));
  afterAll(async () => db?.close());

  it('a lock connection ended mid-run (pg_terminate_backend) aborts the run within seconds, recorded as failed', async () => {
    // Before, the run went on unaware while another replica could take the job (review repro).
    const a = new PartnerJobLockService(await db.openAnother(), { holder: 'replica-a' });
    let started = false;
    const run = a.runExclusive('killed', async (signal) => {
      started = true;
      while (!signal.aborted) await sleep(50);
      return 'finished without its lock';
    });
    while (!started) await sleep(10);
    const holders: Array<{ pid: number }> = await db.dataSource.query(
      `SELECT pid FROM pg_locks WHERE locktype = 'advisory' AND granted`,
    );
    expect(holders).toHaveLength(1);
    const killedAt = Date.now();
    await db.dataSource.query('SELECT pg_terminate_backend($1)', [holders[0].pid]);
    await expect(run).rejects.toThrow(/killed: the connection holding its lock was lost/);
    // One heartbeat (1 s) plus the work's next check; generous for a loaded machine.
    expect(Date.now() - killedAt).toBeLessThan(10_000);
    const row = await db.dataSource.getRepository(PartnerJobLockEntity).findOneByOrFail({ name: 'killed' });
    expect(row.lastOutcome).toBe('error');
    expect(row.lastError).toMatch(/lock was lost/);
  });

  it('a heartbeat that fails while the session lives on (a cancelled probe) still releases the lock', async () => {
    // The database cannot be made to fail one `SELECT 1` on cue, so the probe's failure is injected
    // on A's connection; the lock, the session and replica B are real. Before, the unlock was
    // skipped and the session, still holding the lock, went back to the pool: B stayed locked out.
    const other = await db.openAnother();
    const create = other.createQueryRunner.bind(other);
    other.createQueryRunner = (...args: Parameters<typeof create>) => {
      const runner = create(...args);
      const query = runner.query.bind(runner);
      let failed = false;
      runner.query = ((sql: string, ...rest: unknown[]) =>
        sql === 'SELECT 1' && !failed
          ? ((failed = true), Promise.reject(new Error('canceling statement due to user request')))
          : (query as (...a: unknown[]) => Promise<unknown>)(sql, ...rest)) as typeof runner.query;
      return runner;
    };
    const a = new PartnerJobLockService(other, { holder: 'replica-a' });
    const b = new PartnerJobLockService(await db.openAnother(), { holder: 'replica-b' });
    const run = a.runExclusive('cancelled', async (signal) => {
      while (!signal.aborted) await sleep(50);
      return 'finished without its lock';
    });
    await expect(run).rejects.toThrow(/lock was lost \(canceling statement/);
    expect(await b.runExclusive('cancelled', async () => 'b')).toEqual({ ran: true, result: 'b' });
  });

  it('an idle-session reaper (idle_session_timeout) does not end a run longer than it: others stay locked out', async () => {
    const name = new URL(db.location).pathname.slice(1);
    await db.dataSource.query(`ALTER DATABASE "${name}" SET idle_session_timeout = '3000ms'`);
    try {
      // New pools: their sessions start with the setting.
      const a = new PartnerJobLockService(await db.openAnother(), { holder: 'replica-a' });
      const b = new PartnerJobLockService(await db.openAnother(), { holder: 'replica-b' });
      let started = false;
      const run = a.runExclusive('long', async () => {
        started = true;
        await sleep(5_000); // longer than the timeout: the lock's session would sit idle throughout
        return 'done';
      });
      while (!started) await sleep(10);
      await sleep(4_000);
      expect(await b.runExclusive('long', async () => 'b ran meanwhile')).toEqual({
        ran: false,
        reason: 'locked',
      });
      expect(await run).toEqual({ ran: true, result: 'done' });
    } finally {
      await db.dataSource.query(`ALTER DATABASE "${name}" RESET idle_session_timeout`);
    }
  });
});
