/**
 * Helpers of the inbox batching suites: read the inbox from a connection of the test's own (as
 * another replica would), and make the transaction holding one event id fail.
 */
import { connect, type Server, type Socket } from 'node:net';
import type { DataSource } from 'typeorm';
import { placeholders } from '@partner-payments/typeorm/sql';
import { openTestDatabaseAt } from '../../setup/test-database.fixture';

type Db = { dataSource: DataSource };

async function withDb<T>(target: string | Db, read: (db: Db) => Promise<T>): Promise<T> {
  if (typeof target !== 'string') return read(target);
  const db = await openTestDatabaseAt(target);
  try {
    return await read(db);
  } finally {
    await db.dataSource.destroy();
  }
}

const kindOf = (db: Db) => (db.dataSource.options.type === 'postgres' ? 'postgres' : 'sqlite');

/** The event ids stored that match a LIKE pattern. */
export function storedEventIds(target: string | Db, like: string): Promise<string[]> {
  return withDb(target, async (db) => {
    const [p] = placeholders(kindOf(db), 1);
    const rows: Array<{ event_id: string }> = await db.dataSource.query(
      `SELECT event_id FROM webhook_inbox WHERE event_id LIKE ${p}`,
      [like],
    );
    return rows.map((r) => r.event_id);
  });
}

export function inboxRowCount(target: string | Db): Promise<number> {
  return withDb(target, async (db) => {
    const rows: Array<{ n: string | number }> = await db.dataSource.query(
      'SELECT COUNT(*) AS n FROM webhook_inbox',
    );
    return Number(rows[0].n);
  });
}

/**
 * Makes every transaction that inserts `eventId` into the inbox fail, with all its rows: on
 * PostgreSQL at COMMIT (a deferred constraint trigger), on SQLite at the insert (SQLite has no
 * deferred triggers; the batch's transaction is rolled back just the same). Resolves to the undo.
 */
export async function failInboxInsertsOf(db: Db, eventId: string): Promise<() => Promise<void>> {
  const literal = `'${eventId.replace(/'/g, "''")}'`;
  if (kindOf(db) === 'sqlite') {
    await db.dataSource.query(
      `CREATE TRIGGER inbox_poison BEFORE INSERT ON webhook_inbox WHEN NEW.event_id = ${literal} ` +
        "BEGIN SELECT RAISE(ABORT, 'poisoned batch (test)'); END",
    );
    return async () => void (await db.dataSource.query('DROP TRIGGER inbox_poison'));
  }
  await db.dataSource.query(
    'CREATE FUNCTION inbox_poison() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN ' +
      `IF NEW.event_id = ${literal} THEN RAISE EXCEPTION 'poisoned batch (test)'; END IF; RETURN NULL; END $$`,
  );
  await db.dataSource.query(
    'CREATE CONSTRAINT TRIGGER inbox_poison AFTER INSERT ON webhook_inbox ' +
      'DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION inbox_poison()',
  );
  return async () => {
    await db.dataSource.query('DROP TRIGGER inbox_poison ON webhook_inbox');
    await db.dataSource.query('DROP FUNCTION inbox_poison()');
  };
}

export interface RawAnswer {
  status: number;
  body: string;
}

/**
 * Sends each request on its own connection, every request written in the same event-loop turn
 * once the server (in this process) has accepted all the connections, so they reach it together:
 * what many concurrent deliveries from the partner look like (fetch would send them one by one
 * as its connections open). Resolves with the answers in order.
 */
export async function postBurst(
  server: Server,
  baseUrl: string,
  path: string,
  requests: ReadonlyArray<{ body: string; headers: Record<string, string> }>,
): Promise<RawAnswer[]> {
  const { hostname, port } = new URL(baseUrl);
  let accepted = 0;
  const allAccepted = new Promise<void>((resolve) => {
    const onConnection = () => {
      accepted += 1;
      if (accepted < requests.length) return;
      server.off('connection', onConnection);
      resolve();
    };
    server.on('connection', onConnection);
  });
  const sockets = await Promise.all(
    requests.map(
      () =>
        new Promise<Socket>((resolve, reject) => {
          const socket = connect(Number(port), hostname, () => resolve(socket));
          socket.once('error', reject);
        }),
    ),
  );
  await allAccepted;
  const answers = sockets.map(
    (socket) =>
      new Promise<RawAnswer>((resolve, reject) => {
        const chunks: Buffer[] = [];
        socket.on('data', (c: Buffer) => chunks.push(c));
        socket.once('error', reject);
        socket.once('close', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(text)?.[1] ?? 0);
          resolve({ status, body: text.slice(text.indexOf('\r\n\r\n') + 4) });
        });
      }),
  );
  requests.forEach((r, i) => {
    const head = Object.entries({ ...r.headers, 'content-length': String(Buffer.byteLength(r.body)) })
      .map(([k, v]) => `${k}: ${v}\r\n`)
      .join('');
    sockets[i].write(
      `POST ${path} HTTP/1.1\r\nhost: ${hostname}\r\nconnection: close\r\n${head}\r\n${r.body}`,
    );
  });
  return Promise.all(answers);
}
