import { randomUUID } from 'node:crypto';
import type { QueryRunner } from 'typeorm';
import { SqlParams } from '@partner-payments/typeorm/sql';
import { HOLDER_KEEPALIVE_SQL, keepConnectionBusy, type PartnerUnitOfWork } from '@partner-payments/typeorm';

/** One replica's place in a pass, named so that whether it still runs can be checked from outside. */
export interface PassHolder {
  id: string;
  /** Ends the participation's hold (PostgreSQL: gives back the connection that names it). */
  release(): Promise<void>;
}

/**
 * Who takes part in a reconciliation pass (`reconciliation_participants`), and whether any of them
 * still runs. A replica killed mid-pass leaves its claimed payouts unsettled; a replica starting
 * later must not join that pass (its claims would hide them until the next one) but replace it, and
 * it must know at once, not after a timeout. So a participant is named by something that dies with
 * its process:
 * - PostgreSQL: the backend pid of a connection the participant holds for the whole pass
 *   (`pg:<pid>:…`), alive while it is in pg_stat_activity;
 * - SQLite: the OS pid (`os:<pid>:…`; every process on a SQLite file is on its host), alive while
 *   `kill(pid, 0)` finds it. A holder with this process's own pid is alive only if this process
 *   holds it: a restarted app often gets its dead predecessor's pid (PID 1 in a container), and
 *   `kill` would then find itself and join the dead pass, skipping the payouts it had claimed.
 */
export class PassParticipants {
  constructor(
    private readonly uow: PartnerUnitOfWork,
    private readonly job: string,
  ) {}

  async enter(): Promise<PassHolder> {
    const suffix = randomUUID().slice(0, 8);
    if (this.uow.kind !== 'postgres') {
      const id = `os:${process.pid}:${suffix}`;
      heldHere.add(id);
      return { id, release: () => Promise.resolve(void heldHere.delete(id)) };
    }
    const runner: QueryRunner = this.uow.dataSource.createQueryRunner();
    await runner.connect();
    try {
      await runner.query(HOLDER_KEEPALIVE_SQL); // a vanished host's pass is seen abandoned in ~25 s
      const [row]: Array<{ pid: number }> = await runner.query('SELECT pg_backend_pid() AS pid');
      // Not idle for the pass: an idle-session reaper would otherwise end it and the pass would look abandoned.
      // Lost anyway: the pass is taken for abandoned and replaced; the read phase checks that
      // (ReconciliationPassStore.isCurrent) before each batch.
      const stop = keepConnectionBusy(runner, () => undefined);
      return {
        id: `pg:${row.pid}:${suffix}`,
        release: () => {
          stop();
          return runner.release();
        },
      };
    } catch (error) {
      await runner.release();
      throw error;
    }
  }

  /** Adds `holder` to `passId` (inside the caller's transaction, if any). */
  async register(passId: string, holder: PassHolder): Promise<void> {
    const p = new SqlParams(this.uow.kind);
    await this.uow.run((m) =>
      m.query(
        `INSERT INTO reconciliation_participants (pass_id, holder, job, joined_at)
         VALUES (${p.add(passId)}, ${p.add(holder.id)}, ${p.add(this.job)}, ${p.add(new Date())})
         ON CONFLICT (pass_id, holder) DO NOTHING`,
        p.values,
      ),
    );
  }

  /** Forgets the participants of the job's earlier passes (they are over). */
  async forgetOthers(passId: string): Promise<void> {
    const p = new SqlParams(this.uow.kind);
    await this.uow.run((m) =>
      m.query(
        `DELETE FROM reconciliation_participants WHERE job = ${p.add(this.job)} AND pass_id <> ${p.add(passId)}`,
        p.values,
      ),
    );
  }

  async leave(passId: string, holder: PassHolder): Promise<void> {
    const p = new SqlParams(this.uow.kind);
    await this.uow.run((m) =>
      m.query(
        `DELETE FROM reconciliation_participants WHERE pass_id = ${p.add(passId)} AND holder = ${p.add(holder.id)}`,
        p.values,
      ),
    );
  }

  /** Whether any participant of `passId` still runs. */
  async anyAlive(passId: string): Promise<boolean> {
    const p = new SqlParams(this.uow.kind);
    const rows: Array<{ holder: string }> = await this.uow.run((m) =>
      m.query(`SELECT holder FROM reconciliation_participants WHERE pass_id = ${p.add(passId)}`, p.values),
    );
    const pidOf = (holder: string): number => Number(holder.split(':')[1]);
    if (this.uow.kind !== 'postgres') return rows.some((r) => holderRuns(r.holder, pidOf(r.holder)));
    const pids = rows.map((r) => pidOf(r.holder)).filter(Number.isInteger);
    if (pids.length === 0) return false;
    const alive: unknown[] = await this.uow.run((m) =>
      m.query('SELECT pid FROM pg_stat_activity WHERE pid = ANY($1::int[])', [pids]),
    );
    return alive.length > 0;
  }
}

/** The SQLite holders this process holds now (entered, not released). */
const heldHere = new Set<string>();

/** An `os:` holder runs if it is one of ours, or if it names another pid that runs. */
function holderRuns(holder: string, pid: number): boolean {
  if (!Number.isInteger(pid)) return false;
  return pid === process.pid ? heldHere.has(holder) : processRuns(pid);
}

function processRuns(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM'; // runs, as another user
  }
}
