import { fork, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { PartnerJobLockEntity, PartnerJobLockService } from '@partner-payments/typeorm';
import { openPackageDatabase, type PackageDatabase } from './typeorm-database.fixture';

// A child process compiles the package with ts-node; generous for a loaded machine.
jest.setTimeout(120_000);

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
/** Long enough that "still locked right after the kill" holds on a loaded machine. */
const LEASE_MS = 8_000;

function startHolder(
  file: string,
  job: string,
): { child: ChildProcess; first: Promise<Record<string, unknown>> } {
  const child = fork(
    join(__dirname, 'lease-holder-child.fixture.ts'),
    [file, job, 'child-a', String(LEASE_MS)],
    {
      cwd: join(__dirname, '..', '..'),
      execArgv: [
        '-r',
        'ts-node/register/transpile-only',
        '-r',
        join(__dirname, '..', 'setup', 'source-packages.fixture.ts'),
      ],
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    },
  );
  const first = new Promise<Record<string, unknown>>((resolve, reject) => {
    child.once('message', (m) => resolve(m as Record<string, unknown>));
    child.once('exit', (code) => reject(new Error(`lease holder exited (${code}) before it reported`)));
  });
  return { child, first };
}

describe('PartnerJobLockService on one SQLite file from two processes (the lease)', () => {
  let db: PackageDatabase;
  let child: ChildProcess | undefined;
  beforeAll(async () => (db = await openPackageDatabase('sqlite', 'lease')));
  afterAll(async () => {
    child?.kill('SIGKILL');
    await db?.close();
  });

  it('refuses the job while another process runs it, and takes it once a killed holder’s lease lapses', async () => {
    const here = new PartnerJobLockService(db.dataSource, { holder: 'parent', sqliteLeaseMs: LEASE_MS });
    const holder = startHolder(db.location, 'nightly');
    child = holder.child;
    expect(await holder.first).toEqual({ running: true });

    let ranHere = 0;
    const work = async () => ++ranHere;
    // The child holds it and renews it every second: refused here, however long we look.
    for (let i = 0; i < 3; i++) {
      expect(await here.runExclusive('nightly', work)).toEqual({ ran: false, reason: 'locked' });
      await sleep(1_500);
    }
    const leased = await db.dataSource
      .getRepository(PartnerJobLockEntity)
      .findOneByOrFail({ name: 'nightly' });
    expect(leased.leaseHolder).toMatch(/^child-a#/);

    // Dies without giving it back: its lease still holds for up to LEASE_MS, then lapses.
    const exited = new Promise((resolve) => child?.once('exit', resolve));
    child.kill('SIGKILL');
    await exited;
    const killedAt = Date.now();
    expect(await here.runExclusive('nightly', work)).toEqual({ ran: false, reason: 'locked' });
    let outcome = await here.runExclusive('nightly', work);
    while (!outcome.ran && Date.now() - killedAt < 4 * LEASE_MS) {
      await sleep(250);
      outcome = await here.runExclusive('nightly', work);
    }
    expect(outcome).toEqual({ ran: true, result: 1 });
    // Not before the lease could have lapsed: its last renewal was at most a heartbeat (1 s) before the kill.
    expect(Date.now() - killedAt).toBeGreaterThanOrEqual(LEASE_MS - 1_500);
    const row = await db.dataSource.getRepository(PartnerJobLockEntity).findOneByOrFail({ name: 'nightly' });
    expect(row).toMatchObject({ holder: 'parent', lastOutcome: 'ok', leaseHolder: null, leaseUntil: null });
  });
});
