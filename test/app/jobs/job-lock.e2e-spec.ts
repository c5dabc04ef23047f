import { JobLockEntity } from '../../../apps/reference-app/src/app-entities.constants';
import { JobLockService } from '../../../apps/reference-app/src/scheduling/job-lock.service';
import { DATABASE_KINDS, openTestDatabase, type TestDatabase } from '../../setup/test-database.fixture';

// Boots real servers and databases; jest.config.js's per-project testTimeout is not applied by Jest.
jest.setTimeout(30_000);

function deferred(): { promise: Promise<void>; resolve: () => void } {
  let resolve!: () => void;
  const promise = new Promise<void>((r) => (resolve = r));
  return { promise, resolve };
}

describe.each(DATABASE_KINDS)('JobLockService on %s', (kind) => {
  let db: TestDatabase;
  let replicaA: JobLockService;
  let replicaB: JobLockService;

  beforeAll(async () => {
    db = await openTestDatabase(kind, 'locks');
    replicaA = new JobLockService(db.uow, 'replica-a');
    // PostgreSQL: a second pool, as a second replica has. SQLite: one process, the same service.
    replicaB = kind === 'postgres' ? new JobLockService((await db.openAnother()).uow, 'replica-b') : replicaA;
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
    const row = await db.dataSource.getRepository(JobLockEntity).findOneByOrFail({ name: 'reconcile' });
    expect(row).toMatchObject({
      runs: 2,
      lastOutcome: 'ok',
      holder: kind === 'postgres' ? 'replica-b' : 'replica-a',
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
    const row = await db.dataSource.getRepository(JobLockEntity).findOneByOrFail({ name: 'flaky' });
    expect(row).toMatchObject({ lastOutcome: 'error', lastError: 'partner down' });
    expect(await replicaB.runExclusive('flaky', async () => 'recovered')).toEqual({
      ran: true,
      result: 'recovered',
    });
  });
});
