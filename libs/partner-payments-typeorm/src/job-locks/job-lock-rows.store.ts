import type { DataSource } from 'typeorm';
import { PartnerSqlStatements } from '../database/sql-statement.util';
import { placeholders, readTimestamp } from '../database/sql-dialect.util';

/** The longest error message kept in job_locks.last_error. */
const MAX_ERROR_LENGTH = 2000;

/**
 * The job_locks rows: the record of runs (any database) and the SQLite lease. Each write is one
 * statement, so it needs no transaction and cannot be left half-done.
 */
export class JobLockRows {
  readonly sql: PartnerSqlStatements;

  constructor(dataSource: DataSource) {
    this.sql = new PartnerSqlStatements(dataSource);
  }

  /** The n-th placeholder of a statement, in the database's style. */
  private p(n: number): string {
    return placeholders(this.sql.kind, 1, n)[0];
  }

  /** When the job was last started, or null. */
  async lastStartedAt(name: string): Promise<Date | null> {
    const [row] = await this.sql.rows<{ last_started_at: unknown }>(
      `SELECT last_started_at FROM job_locks WHERE name = ${this.p(1)}`,
      [name],
    );
    return readTimestamp(row?.last_started_at);
  }

  async recordStart(name: string, holder: string, at: Date): Promise<void> {
    const p = (n: number) => this.p(n);
    await this.sql.rows(
      `INSERT INTO job_locks (name, runs, holder, last_started_at) VALUES (${p(1)}, 0, ${p(2)}, ${p(3)}) ` +
        'ON CONFLICT (name) DO UPDATE SET holder = excluded.holder, last_started_at = excluded.last_started_at',
      [name, holder, at],
    );
  }

  async recordFinish(name: string, outcome: 'ok' | 'error', error: string | null): Promise<void> {
    const p = (n: number) => this.p(n);
    await this.sql.rows(
      `UPDATE job_locks SET last_finished_at = ${p(1)}, last_outcome = ${p(2)}, last_error = ${p(3)}, ` +
        `runs = runs + 1 WHERE name = ${p(4)}`,
      [new Date(), outcome, error?.slice(0, MAX_ERROR_LENGTH) ?? null, name],
    );
  }

  /**
   * SQLite: takes the job's lease when nobody holds it or its holder let it lapse, in one
   * statement (an insert, or an update guarded by the lapse), so of two processes racing for it
   * exactly one gets a row back. Both compare against their own clock: every process on a SQLite
   * file runs on its host, so they read the same clock.
   */
  async takeLease(name: string, leaseHolder: string, now: Date, until: Date): Promise<boolean> {
    const rows = await this.sql.rows(
      'INSERT INTO job_locks (name, runs, lease_holder, lease_until) VALUES (?, 0, ?, ?) ' +
        'ON CONFLICT (name) DO UPDATE SET lease_holder = excluded.lease_holder, lease_until = excluded.lease_until ' +
        'WHERE job_locks.lease_until IS NULL OR job_locks.lease_until < ? RETURNING name',
      [name, leaseHolder, until, now],
    );
    return rows.length === 1;
  }

  /** SQLite: extends the lease; false when it is no longer this holder's (it lapsed and was taken). */
  async renewLease(name: string, leaseHolder: string, until: Date): Promise<boolean> {
    const rows = await this.sql.rows(
      'UPDATE job_locks SET lease_until = ? WHERE name = ? AND lease_holder = ? RETURNING name',
      [until, name, leaseHolder],
    );
    return rows.length === 1;
  }

  async releaseLease(name: string, leaseHolder: string): Promise<void> {
    await this.sql.rows(
      'UPDATE job_locks SET lease_holder = NULL, lease_until = NULL WHERE name = ? AND lease_holder = ?',
      [name, leaseHolder],
    );
  }
}
