/**
 * Attacks on the reference app that must not hang, stall or rewind it, counted for the reliability
 * table from what the app answered and what its database holds afterwards:
 *
 * - replay after pruning: a signed body replayed after the retention deleted its entry (spec 6.1.3:
 *   the signature carries no time), or while it deletes it (PostgreSQL), is a duplicate; the user
 *   stays VERIFIED, a new event applies;
 * - stale event: an event older (updated_at) than the state applied changes nothing;
 * - inbox cannot record: SQLite full / PostgreSQL read-only, `SELECT 1` answering: the delivery is
 *   answered 500 (never a 2xx for what was not stored), readiness 503 naming the inbox, then 200
 *   and the delivery stored once writes work again;
 * - client id at rest: a database that held PARTNER_CLIENT_ID as its pin key keeps its pin after
 *   the upgrade and no table (nor the SQLite file) holds the id;
 * - slow-loris request: headers or a body trickled a byte at a time are cut off at the configured
 *   bound (no database involved: n/a);
 * - endless app body: an endless chunked JSON or form body to POST /payouts or an operator route is
 *   refused 413 at the 100 kB limit with the connection closed, having read a bounded amount, and a
 *   Content-Length over the limit is refused before its body is sent (n/a).
 */
import { randomUUID } from 'node:crypto';
import { isDeepStrictEqual } from 'node:util';
import type { PartnerSandbox } from '@partner-payments/testing';
import request from 'supertest';
import type { RunningApp } from '../../apps/reference-app/src/app-bootstrap.util';
import { openDataSource } from '../../apps/reference-app/src/app-data-source.util';
import { parseDatabaseUrl } from '../../apps/reference-app/src/database/database-url.util';
import { trickle } from '../app/config/http-limits.fixture';
import { seedPlainClientIdPin } from '../app/database/pin-seed.fixture';
import { makeInboxUnableToRecord, paddedEvent } from '../app/operations/inbox-write.fixture';
import {
  replayAfterPruning,
  replayDuringPrune,
  staleAfterNewer,
  startReplayWorld,
} from '../app/webhooks/replay.fixture';
import {
  appRequest,
  deliverSignedWebhook,
  eventually,
  startTestApp,
  startTestSandbox,
  TEST_AUTH_HEADERS,
} from '../setup/app.fixture';
import { DATABASE_KINDS, databaseUrlFor } from '../setup/test-database.fixture';
import { sendEndlessBody, ServerReadCounter } from './attack-inputs.fixture';
import { findSecrets, sqliteFiles, tableDumps } from './secrets-scan.fixture';
import { recordTally, type ReliabilityTally } from './tally.fixture';

jest.setTimeout(120_000);

/** One row of the table: each input tried is counted right or wrong from what was observed. */
class AttackTally {
  private readonly row: Required<Pick<ReliabilityTally, 'inputsTried' | 'refusedRight' | 'wrong'>> &
    ReliabilityTally;

  constructor(suite: string, database: string) {
    this.row = { suite, database, inputsTried: 0, refusedRight: 0, wrong: 0 };
  }

  /** One input tried; `right` is what the test observed. */
  count(right: boolean): boolean {
    this.row.inputsTried += 1;
    if (right) this.row.refusedRight += 1;
    else this.row.wrong += 1;
    return right;
  }

  add(column: 'lost' | 'leaked', n: number): void {
    this.row[column] = (this.row[column] ?? 0) + n;
  }

  record(): void {
    recordTally(this.row);
  }
}

describe.each(DATABASE_KINDS)('attacks on the app (%s)', (kind) => {
  it('replay after pruning and stale events change nothing; a new event still applies', async () => {
    const replays = new AttackTally('attack: replay after pruning', kind);
    const stale = new AttackTally('attack: stale event', kind);
    const world = await startReplayWorld(kind, `attack-replay-${kind}`);
    try {
      // Counted first, asserted after: a wrong answer must not hide the inputs after it.
      const rounds = [];
      for (let round = 0; round < 2; round++) {
        const seen = await replayAfterPruning(world);
        replays.count(
          seen.replayAnswer === 200 && seen.replayStored === null && seen.afterReplay === 'VERIFIED',
        );
        // The genuinely new event after the pruning must not be dropped.
        replays.add('lost', seen.afterNew === 'ACTIVE' ? 0 : 1);
        rounds.push(seen);
      }
      // PostgreSQL: one more replay, sent while the prune batch deleting its entry is uncommitted.
      if (kind === 'postgres') {
        const seen = await replayDuringPrune(world);
        replays.count(
          seen.replayAnswer === 200 && seen.replayStored === null && seen.afterReplay === 'VERIFIED',
        );
        rounds.push({ ...seen, afterNew: 'ACTIVE' });
      }
      const older = await staleAfterNewer(world);
      stale.count(older.user === 'VERIFIED');
      stale.count(older.virtualAccount === 'approved');
      for (const seen of rounds) {
        expect(seen.pruned).toBeGreaterThanOrEqual(2);
        expect(seen).toMatchObject({
          verified: 'VERIFIED',
          replayStored: null,
          afterReplay: 'VERIFIED',
          afterNew: 'ACTIVE',
        });
      }
      expect(older).toEqual({ user: 'VERIFIED', virtualAccount: 'approved' });
    } finally {
      replays.record();
      stale.record();
      await world.close();
    }
  });

  it('inbox cannot record: the delivery is refused 500, readiness 503 naming the inbox, then both recover', async () => {
    const tally = new AttackTally('attack: inbox cannot record', kind);
    const sandbox: PartnerSandbox = await startTestSandbox();
    const { url, cleanup } = await databaseUrlFor(kind, 'attack-full');
    const running: RunningApp = await startTestApp(url, {}, sandbox);
    const ready = () => request(running.app.getHttpServer()).get('/health/ready');
    const raw = paddedEvent(`evt_${randomUUID()}`, 256);
    const full = await makeInboxUnableToRecord(kind, running, url);
    let restored = false;
    try {
      const refused = await deliverSignedWebhook(running, raw, sandbox.webhookSecret);
      tally.count(refused.status === 500);
      const down = await ready();
      tally.count(down.status === 503 && down.body?.error?.inboxWrite?.status === 'down');
      await full.restore();
      restored = true;
      const back = await eventually(
        async () => ((await ready()).status === 200 ? 200 : undefined),
        20_000,
        'ready again',
      ).catch(() => 503);
      tally.count(back === 200);
      const stored = await deliverSignedWebhook(running, raw, sandbox.webhookSecret);
      tally.count(stored.status === 200);
      expect({ refused: refused.status, down: down.status, back, stored: stored.status }).toEqual({
        refused: 500,
        down: 503,
        back: 200,
        stored: 200,
      });
    } finally {
      tally.record();
      if (!restored) await full.restore();
      await running.close();
      await sandbox.close();
      cleanup();
    }
  });

  it('client id at rest: an upgraded database keeps its pin and holds the id nowhere', async () => {
    const tally = new AttackTally('attack: client id at rest', kind);
    const sandbox = await startTestSandbox();
    const { url, cleanup } = await databaseUrlFor(kind, 'attack-pin');
    const clientId = sandbox.credentials.clientId;
    const pinnedAt = new Date('2026-11-01T08:00:00.000Z');
    try {
      await seedPlainClientIdPin(kind, url, clientId, pinnedAt);
      const running = await startTestApp(url, { PARTNER_CLIENT_UUID: undefined }, sandbox);
      const state = await appRequest(running).get('/versioning');
      await running.close();
      const db = await openDataSource(parseDatabaseUrl(url));
      const haystacks = await tableDumps(db, kind);
      await db.destroy();
      if (kind === 'sqlite') haystacks.push(...sqliteFiles(url.replace(/^sqlite:/, '')));
      const findings = findSecrets([{ name: 'partner client id', value: clientId }], haystacks);
      tally.add('leaked', findings.length);
      const kept = state.body.pinnedAt === pinnedAt.toISOString() && state.body.pinned === '2026-04-14';
      tally.count(kept && findings.length === 0);
      expect({ kept, findings }).toEqual({ kept: true, findings: [] });
    } finally {
      tally.record();
      await sandbox.close();
      cleanup();
    }
  });
});

describe('attacks on the app: slow-loris request (no database involved)', () => {
  const HEADERS_MS = 2_000;
  const REQUEST_MS = 4_000;
  // The bound, Node's one-second check and room for a loaded machine; the old server held 300 s.
  const LIMIT_MS = REQUEST_MS + 6_000;

  it('headers or a webhook body trickled a byte at a time are cut off within the configured bound', async () => {
    const tally = new AttackTally('attack: slow-loris request', 'n/a');
    const sandbox = await startTestSandbox();
    const { url, cleanup } = await databaseUrlFor('sqlite', 'attack-slow');
    const running = await startTestApp(
      url,
      { HTTP_HEADERS_TIMEOUT_MS: String(HEADERS_MS), HTTP_REQUEST_TIMEOUT_MS: String(REQUEST_MS) },
      sandbox,
    );
    try {
      const body = JSON.stringify({
        event: 'user.created',
        data: { event_id: 'slow', pad: 'x'.repeat(300) },
      });
      const held = await Promise.all([
        trickle(running.url, {
          head: `POST /webhooks/partner HTTP/1.1\r\nHost: app\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n`,
          trickle: body,
          everyMs: 500,
          giveUpMs: 60_000,
        }),
        trickle(running.url, {
          head: '',
          trickle: `GET /health/live HTTP/1.1\r\nHost: app\r\nX-Pad: ${'y'.repeat(300)}\r\n\r\n`,
          everyMs: 300,
          giveUpMs: 60_000,
        }),
        trickle(running.url, {
          head: `POST /payouts HTTP/1.1\r\nHost: app\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n`,
          trickle: body,
          everyMs: 500,
          giveUpMs: 60_000,
        }),
      ]);
      for (const h of held) tally.count(h.heldMs < LIMIT_MS);
      expect(held.map((h) => h.heldMs < LIMIT_MS)).toEqual([true, true, true]);
    } finally {
      tally.record();
      await running.close();
      await sandbox.close();
      cleanup();
    }
  });
});

describe('attacks on the app: endless bodies to its own routes (no database involved)', () => {
  const LIMIT = 100 * 1024; // the app's body limit (README: at most 100 kB)
  const TOO_LARGE = { statusCode: 413, message: 'request entity too large' };
  const parsed = (text: string): unknown => {
    try {
      return JSON.parse(text) as unknown;
    } catch {
      return text;
    }
  };
  let sandbox: PartnerSandbox;
  let running: RunningApp;
  let cleanup: () => void;
  const tally = new AttackTally('attack: endless app body', 'n/a');

  beforeAll(async () => {
    sandbox = await startTestSandbox();
    const db = await databaseUrlFor('sqlite', 'attack-endless');
    cleanup = db.cleanup;
    // The default request timeout (30 s) is past the give-up below: only the body limit can end these.
    running = await startTestApp(db.url, {}, sandbox);
  });
  afterAll(async () => {
    tally.record();
    await running?.close();
    await sandbox?.close();
    cleanup?.();
  });

  it.each([
    ['POST /payouts, chunked JSON', '/payouts', 'application/json', {}],
    ['POST /payouts, chunked form', '/payouts', 'application/x-www-form-urlencoded', {}],
    ['POST /inbox/prune (operator), chunked JSON', '/inbox/prune', 'application/json', TEST_AUTH_HEADERS],
    ['POST /inbox/prune (operator), chunked form', '/inbox/prune', 'application/x-www-form-urlencoded', {}],
  ])('%s: 413 at the limit, the connection closed, a bounded read', async (_label, path, type, auth) => {
    const counter = new ServerReadCounter(running.app.getHttpServer());
    const before = counter.bytesRead();
    const out = await sendEndlessBody(`${running.url}${path}`, { 'content-type': type, ...auth }, 15_000);
    const read = counter.bytesRead() - before;
    const seen = {
      status: out.status,
      connection: out.connection,
      body: out.body === null ? null : parsed(out.body),
      closedWithin10s: out.closedAfterMs !== null && out.closedAfterMs < 10_000,
      readUnder10MB: read < 10 * 1024 * 1024,
    };
    const expected = {
      status: 413,
      connection: 'close',
      body: TOO_LARGE,
      closedWithin10s: true,
      readUnder10MB: true,
    };
    tally.count(isDeepStrictEqual(seen, expected));
    expect(seen).toEqual(expected);
  });

  it('POST /payouts, chunked text/plain: the 415 goes at once and the connection is closed at the limit', async () => {
    const counter = new ServerReadCounter(running.app.getHttpServer());
    const before = counter.bytesRead();
    const out = await sendEndlessBody(`${running.url}/payouts`, { 'content-type': 'text/plain' }, 15_000);
    const read = counter.bytesRead() - before;
    const seen = {
      status: out.status,
      closedWithin10s: out.closedAfterMs !== null && out.closedAfterMs < 10_000,
      readUnder10MB: read < 10 * 1024 * 1024,
    };
    const expected = { status: 415, closedWithin10s: true, readUnder10MB: true };
    tally.count(isDeepStrictEqual(seen, expected));
    expect(seen).toEqual(expected);
  });

  it('a Content-Length just over the limit is answered 413 before its body is sent', async () => {
    // The head alone: the body is never sent, so only an answer that does not wait for it arrives.
    const held = await trickle(running.url, {
      head: `POST /payouts HTTP/1.1\r\nHost: app\r\nContent-Type: application/json\r\nContent-Length: ${LIMIT + 1}\r\n\r\n`,
      trickle: '',
      everyMs: 1_000,
      giveUpMs: 15_000,
    });
    const seen = { status: held.statusLine?.split(' ')[1] ?? null, closedWithin10s: held.heldMs < 10_000 };
    const expected = { status: '413', closedWithin10s: true };
    tally.count(isDeepStrictEqual(seen, expected));
    expect(seen).toEqual(expected);
  });
});
