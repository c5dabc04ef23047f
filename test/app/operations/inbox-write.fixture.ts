/**
 * Makes the app's inbox unable to record while the database still answers `SELECT 1`, and back:
 * SQLite "database or disk is full" (SQLITE_FULL: the file may not grow by a page, PRAGMA
 * max_page_count on the app's own connection), PostgreSQL read-only (the database's
 * default_transaction_read_only, the app's sessions ended so the pool reconnects under it, as
 * after a fail-over to a standby).
 */
import type { Database } from 'better-sqlite3';
import { Client } from 'pg';
import { DataSource } from 'typeorm';
import type { RunningApp } from '../../../apps/reference-app/src/app-bootstrap.util';
import type { DatabaseKind } from '../../../apps/reference-app/src/database/database-url.util';

export interface Unrecordable {
  restore(): Promise<void>;
}

export async function makeInboxUnableToRecord(
  kind: DatabaseKind,
  running: RunningApp,
  databaseUrl: string,
): Promise<Unrecordable> {
  if (kind === 'sqlite') {
    const db = (running.app.get(DataSource).driver as unknown as { databaseConnection: Database })
      .databaseConnection;
    const before = db.pragma('max_page_count', { simple: true }) as number;
    db.pragma(`max_page_count = ${db.pragma('page_count', { simple: true }) as number}`);
    return {
      async restore() {
        db.pragma(`max_page_count = ${before}`);
      },
    };
  }
  const name = new URL(databaseUrl).pathname.slice(1);
  const admin = new Client({ connectionString: process.env.TEST_POSTGRES_URL });
  await admin.connect();
  const readOnly = async (on: boolean) => {
    await admin.query(`ALTER DATABASE "${name}" SET default_transaction_read_only = ${on ? 'on' : 'off'}`);
    await admin.query(
      'SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()',
      [name],
    );
  };
  await readOnly(true);
  return {
    async restore() {
      await readOnly(false);
      await admin.end();
    },
  };
}

/** A user event whose body is about `kb` kilobytes (a SQLite write that needs new pages). */
export function paddedEvent(eventId: string, kb: number): string {
  return JSON.stringify({
    event: 'user.updated',
    data: { event_id: eventId, user_id: eventId, note: 'n'.repeat(kb * 1024) },
  });
}
