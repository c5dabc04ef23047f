/**
 * The benchmark's own view of the app's webhook_inbox (SQLite file or PostgreSQL), through the app's
 * own openDataSource (a second connection, as another replica would hold): which event ids are
 * stored, in which state, and when each was received and processed.
 */
import type { DataSource } from 'typeorm';
import { openDataSource } from '../../apps/reference-app/src/app-data-source.util';
import { parseDatabaseUrl } from '../../apps/reference-app/src/database/database-url.util';

export interface InboxRow {
  eventId: string;
  state: string;
  receivedAt: number;
  processedAt: number | null;
}

export interface InboxReader {
  dataSource: DataSource;
  rows(): Promise<InboxRow[]>;
  /** Entries still to process (pending or failed and due again; not dead ones). */
  unprocessed(): Promise<number>;
  close(): Promise<void>;
}

/** SQLite keeps TypeORM's UTC text 'YYYY-MM-DD HH:MM:SS.SSS'; PostgreSQL gives a Date. */
function millis(v: unknown): number | null {
  if (v === null || v === undefined) return null;
  if (v instanceof Date) return v.getTime();
  const s = String(v);
  return Date.parse(/[zZ]|[+-]\d\d:?\d\d$/.test(s) ? s : `${s.replace(' ', 'T')}Z`);
}

export async function openInboxReader(databaseUrl: string): Promise<InboxReader> {
  const dataSource = await openDataSource(parseDatabaseUrl(databaseUrl));
  return {
    dataSource,
    async rows() {
      const raw: Array<Record<string, unknown>> = await dataSource.query(
        'SELECT event_id, state, received_at, processed_at FROM webhook_inbox',
      );
      return raw.map((r) => ({
        eventId: String(r.event_id),
        state: String(r.state),
        receivedAt: millis(r.received_at) ?? NaN,
        processedAt: millis(r.processed_at),
      }));
    },
    async unprocessed() {
      // One state per COUNT: each reads its partial index (migration 1764700000000), where
      // `state NOT IN (...)` read every row of a table that grows by a round's deliveries.
      const raw: Array<{ n: string | number }> = await dataSource.query(
        "SELECT (SELECT COUNT(*) FROM webhook_inbox WHERE state = 'pending') + " +
          "(SELECT COUNT(*) FROM webhook_inbox WHERE state = 'failed') AS n",
      );
      return Number(raw[0]?.n ?? 0);
    },
    close: () => dataSource.destroy(),
  };
}

/** Polls until nothing is left to process or the time is up; resolves with what is left. */
export async function waitProcessed(reader: InboxReader, timeoutMs: number): Promise<number> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const left = await reader.unprocessed();
    if (left === 0 || Date.now() >= end) return left;
    await new Promise((r) => setTimeout(r, 100));
  }
}
