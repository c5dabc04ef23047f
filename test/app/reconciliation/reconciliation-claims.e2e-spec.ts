/**
 * The claims that make each payout checked once per pass across replicas, raced directly
 * by two connections ("replicas") on one database, SQLite file and PostgreSQL.
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import {
  PayoutEntity,
  ReconciliationPassEntity,
} from '../../../apps/reference-app/src/app-entities.constants';
import { type PartnerUnitOfWork } from '@partner-payments/typeorm';
import { PayoutClaims } from '../../../apps/reference-app/src/reconciliation/payout-claims.store';
import {
  ReconciliationPassStore,
  type Participation,
} from '../../../apps/reference-app/src/reconciliation/reconciliation-pass.store';
import { DATABASE_KINDS, openTestDatabase, type TestDatabase } from '../../setup/test-database.fixture';

jest.setTimeout(60_000);

/** The pid of a process that has exited (no process has it now). */
async function exitedPid(): Promise<number> {
  const child = spawn(process.execPath, ['-e', '0']);
  await once(child, 'exit');
  return child.pid!;
}

describe.each(DATABASE_KINDS)('reconciliation claims on %s', (kind) => {
  let db: TestDatabase;
  let other: { uow: PartnerUnitOfWork };
  const ids = Array.from({ length: 400 }, (_, i) => `p-${String(i).padStart(4, '0')}`);

  beforeAll(async () => {
    db = await openTestDatabase(kind, 'claims');
    other = await db.openAnother();
    const created = new Date(Date.now() - 60_000);
    const rows = ids.map((payoutId) => ({
      payoutId,
      status: 'PENDING',
      lastSource: 'webhook' as const,
      createdAt: created,
      updatedAt: created,
      checkFailures: 0,
      version: 1,
    }));
    for (let at = 0; at < rows.length; at += 200)
      await db.uow.run((m) => m.insert(PayoutEntity, rows.slice(at, at + 200)));
  });
  afterAll(async () => {
    for (const participation of participations) await participation.leave();
    await db?.close();
  });

  const participations: Participation[] = [];
  const openPass = async () => {
    const store = new ReconciliationPassStore(db.uow, `claims-${Math.random()}`);
    const participation = (await store.joinOrOpen(new Date(), null, { fromDate: null }))!;
    participations.push(participation);
    return participation.pass;
  };

  it('two replicas claiming the same listed payouts at once get disjoint sets covering them all', async () => {
    const pass = await openPass();
    const mine = new PayoutClaims(db.uow, 72);
    const theirs = new PayoutClaims(other.uow, 72);
    const now = new Date();
    // Overlapping pages (as when the list shifts under paging): each claims ids[0..299] and ids[100..399].
    const [a1, b1, a2, b2] = await Promise.all([
      mine.claimListed(pass, ids.slice(0, 300), now),
      theirs.claimListed(pass, ids.slice(100), now),
      mine.claimListed(pass, ids.slice(100), now),
      theirs.claimListed(pass, ids.slice(0, 300), now),
    ]);
    const claimed = [...a1, ...b1, ...a2, ...b2].map((r) => r.payoutId);
    expect(claimed).toHaveLength(ids.length);
    expect(new Set(claimed)).toEqual(new Set(ids));
    // Claimed rows come back as entities with their version (the projection writes against it).
    expect(a1.concat(b1)[0]).toMatchObject({ status: 'PENDING', version: 1, createdAt: expect.any(Date) });
    // Nothing is left for the batches of single reads, in either replica.
    expect(await mine.claimNext(pass, 50, now, null)).toEqual([]);
  });

  it('batches of single reads (FOR UPDATE SKIP LOCKED on PostgreSQL) never hand one payout to both', async () => {
    const pass = await openPass();
    const replicas = [new PayoutClaims(db.uow, 72), new PayoutClaims(other.uow, 72)];
    const claimed: string[] = [];
    await Promise.all(
      replicas.map(async (claims) => {
        for (;;) {
          const rows = await claims.claimNext(pass, 25, new Date(), null);
          if (rows.length === 0) return;
          claimed.push(...rows.map((r) => r.payoutId));
        }
      }),
    );
    expect(claimed).toHaveLength(ids.length);
    expect(new Set(claimed)).toEqual(new Set(ids));
  });

  /** Makes `holder` the only participant of `passId`, as if the replicas in it had been it. */
  const replaceParticipants = (passId: string, job: string, holder: string) =>
    db.uow.run(async (m) => {
      const p = kind === 'postgres' ? ['$1', '$2', '$3', '$4'] : ['?', '?', '?', '?'];
      await m.query(`DELETE FROM reconciliation_participants WHERE pass_id = ${p[0]}`, [passId]);
      await m.query(
        `INSERT INTO reconciliation_participants (pass_id, holder, job, joined_at) VALUES (${p.join(', ')})`,
        [passId, holder, job, kind === 'postgres' ? new Date() : '2026-01-01 00:00:00.000'],
      );
    });

  // SQLite names a participant by its OS pid. A replica that dies mid-pass and restarts often gets
  // the same pid (PID 1 in a container): the pass its predecessor held is abandoned, not its own.
  // (PostgreSQL names a participant by its connection's backend pid, which a restart does not inherit.)
  (kind === 'sqlite' ? it : it.skip)(
    'a pass held by a dead process that had our pid is replaced, not joined (SQLite)',
    async () => {
      const job = `same-pid-${Math.random()}`;
      const a = (await new ReconciliationPassStore(db.uow, job).joinOrOpen(new Date(), null, {
        fromDate: null,
      }))!;
      participations.push(a);
      await replaceParticipants(a.pass.passId, job, `os:${process.pid}:before-restart`);
      const b = (await new ReconciliationPassStore(db.uow, job).joinOrOpen(new Date(), null, {
        fromDate: null,
      }))!;
      participations.push(b);
      expect(b.pass.opened).toBe(true); // joining would leave its predecessor's claims unchecked
      expect(b.pass.passId).not.toBe(a.pass.passId);
      // Its own participation, held by this process, keeps the new pass live for the others.
      const c = (await new ReconciliationPassStore(other.uow, job).joinOrOpen(new Date(), null, {
        fromDate: null,
      }))!;
      participations.push(c);
      expect([c.pass.opened, c.pass.passId]).toEqual([false, b.pass.passId]);
    },
  );

  it('only the replica opening a pass prices its list window; the one joining it does not', async () => {
    const job = `window-${Math.random()}`;
    const priced: string[] = [];
    const window = (who: string) => async () => {
      priced.push(who);
      return { fromDate: '2026-01-01' };
    };
    const a = (await new ReconciliationPassStore(db.uow, job).joinOrOpen(new Date(), null, window('a')))!;
    const b = (await new ReconciliationPassStore(other.uow, job).joinOrOpen(new Date(), null, window('b')))!;
    participations.push(a, b);
    expect([a.pass.opened, b.pass.opened, b.pass.fromDate]).toEqual([true, false, '2026-01-01']);
    expect(priced).toEqual(['a']);
  });

  it("a tick's pass that finishes while another replica checks whether it still runs is not run again for that tick", async () => {
    const job = `tick-race-${Math.random()}`;
    const tick = new Date(Math.floor(Date.now() / 1000) * 1000);
    const first = new ReconciliationPassStore(db.uow, job);
    const second = new ReconciliationPassStore(other.uow, job);
    const a = (await first.joinOrOpen(new Date(), tick, { fromDate: null }))!;
    // The interleaving CI once hit: the second replica read the pass as open, then the first one
    // finished it and left before the second asked whether any participant still ran.
    const participants = (second as unknown as { participants: { anyAlive(id: string): Promise<boolean> } })
      .participants;
    const anyAlive = participants.anyAlive.bind(participants);
    jest.spyOn(participants, 'anyAlive').mockImplementationOnce(async (passId) => {
      await first.finish(a.pass, new Date());
      await a.leave();
      return anyAlive(passId);
    });
    const b = await second.joinOrOpen(new Date(), tick, { fromDate: null });
    expect(b).toBeNull(); // this tick's pass already ran
    const row = await db.uow.run((m) => m.findOneOrFail(ReconciliationPassEntity, { where: { job } }));
    expect(row.passId).toBe(a.pass.passId);
    expect(row.finishedAt).not.toBeNull();
    // The next tick opens a new pass as usual.
    const c = (await second.joinOrOpen(new Date(), new Date(tick.getTime() + 1000), { fromDate: null }))!;
    participations.push(c);
    expect([c.pass.opened, c.pass.passId === a.pass.passId]).toEqual([true, false]);
  });

  it('a pass is joined while a participant runs, and replaced once every participant is dead', async () => {
    const job = `liveness-${Math.random()}`;
    const first = new ReconciliationPassStore(db.uow, job);
    const second = new ReconciliationPassStore(other.uow, job);
    const a = (await first.joinOrOpen(new Date(), null, { fromDate: null }))!;
    const b = (await second.joinOrOpen(new Date(), null, { fromDate: null }))!;
    participations.push(a, b);
    expect([a.pass.opened, b.pass.opened, b.pass.passId]).toEqual([true, false, a.pass.passId]);
    // Both "die": their participations are replaced by holders whose process is gone.
    const gone = kind === 'postgres' ? 'pg:2147483646:dead' : `os:${await exitedPid()}:dead`;
    await replaceParticipants(a.pass.passId, job, gone);
    const c = (await new ReconciliationPassStore(db.uow, job).joinOrOpen(new Date(), null, {
      fromDate: null,
    }))!;
    participations.push(c);
    expect(c.pass.opened).toBe(true); // not joined: its claims would hide the dead replicas' payouts
    expect(c.pass.passId).not.toBe(a.pass.passId);
  });
});
