/**
 * A database connection that goes silent under the webhook intake (a PostgreSQL failover, a
 * network path that stops forwarding without FIN or RST). The group commit has one batch insert
 * in flight at a time, so an insert that never returns would hold every later delivery behind it
 * until the kernel gives up on the socket (many minutes), while the partner waits 30 s and never
 * retries (spec 6.1.4; [T1 REVISION-DOCS §2.4]). The insert is bounded (INBOX_RECORD_TIMEOUT_MS):
 * its deliveries get a 500 with no row, its connection is destroyed, and the connections opened
 * before the timeout are not reused by the intake, so the next delivery is stored on a new one.
 *
 * PostgreSQL only: SQLite is a file in the process, with no connection that can go silent. Real
 * parts: the throwaway PostgreSQL behind a TCP proxy in this process that black-holes connections.
 */
import { buildUserCreated, signPartnerWebhook, type PartnerSandbox } from '@partner-payments/testing';
import type { RunningApp } from '../../../apps/reference-app/src/app-bootstrap.util';
import { CapturingLogger, startTestApp, startTestSandbox } from '../../setup/app.fixture';
import { startBlackHoleProxy, type BlackHoleProxy } from '../../setup/black-hole-proxy.fixture';
import { scrapeMetrics } from '../../setup/metrics.fixture';
import { databaseUrlFor } from '../../setup/test-database.fixture';
import { storedEventIds } from './inbox-batch.fixture';

jest.setTimeout(90_000);

/** Far under the partner's 30 s, and far over the insert timeout the app is given below. */
const ANSWER_WITHIN_MS = 15_000;
const INSERT_TIMEOUT_MS = 2_000;

describe('webhook intake on a PostgreSQL connection that goes silent', () => {
  let sandbox: PartnerSandbox;
  let proxy: BlackHoleProxy;
  let running: RunningApp;
  let url: string;
  const logger = new CapturingLogger();

  beforeAll(async () => {
    sandbox = await startTestSandbox();
    ({ url } = await databaseUrlFor('postgres', 'deadconn'));
    const { hostname, port } = new URL(url);
    proxy = await startBlackHoleProxy({ host: hostname, port: Number(port) });
    running = await startTestApp(
      proxy.via(url),
      { INBOX_RECORD_TIMEOUT_MS: String(INSERT_TIMEOUT_MS) },
      sandbox,
      { logger },
    );
  });
  afterAll(async () => {
    // The proxy first: on a pool with a query that never returns, closing the app would wait forever.
    await proxy?.close();
    await running?.close();
    await sandbox?.close();
  });

  /** One signed delivery; the status, or 0 when no answer came within ANSWER_WITHIN_MS. */
  const deliver = async (eventId: string): Promise<{ status: number; ms: number }> => {
    const body = JSON.stringify(
      buildUserCreated({ event_id: eventId, user_id: `u_${eventId}`, status: 'CREATED' }),
    );
    const started = Date.now();
    try {
      const res = await fetch(`${running.url}/webhooks/partner`, {
        method: 'POST',
        body,
        headers: {
          'content-type': 'application/json',
          'x-signature-sha256': signPartnerWebhook(body, sandbox.webhookSecret),
        },
        signal: AbortSignal.timeout(ANSWER_WITHIN_MS),
      });
      await res.text();
      return { status: res.status, ms: Date.now() - started };
    } catch (error) {
      if ((error as Error).name !== 'TimeoutError') throw error;
      return { status: 0, ms: Date.now() - started };
    }
  };

  it('answers within seconds once the connections die: 500 and no row for the batch in flight, then 200 on a new connection', async () => {
    expect((await deliver('dead-before')).status).toBe(200);
    const openedBefore = proxy.opened;
    const dead = proxy.blackHoleOpenConnections();
    expect(dead).toBeGreaterThan(0);

    // The insert goes to a connection that never answers: without a bound, no answer at all
    // within 15 s (it would come when the kernel gives up on the socket, minutes later).
    const answering = deliver('dead-during');
    // One batch in flight at a time: a delivery arriving meanwhile waits for it, then goes next.
    // Halfway through the 2 s bound: the first is surely in flight even on a loaded machine.
    await new Promise((r) => setTimeout(r, 1000));
    const queued = await deliver('dead-queued');
    const during = await answering;
    expect(during).toEqual({ status: 500, ms: expect.any(Number) });
    expect(during.ms).toBeGreaterThanOrEqual(INSERT_TIMEOUT_MS - 100);
    // The connections opened before the failure are not reused: stored and acknowledged on a new one.
    expect(queued).toEqual({ status: 200, ms: expect.any(Number) });

    // The intake goes on (a dead connection would have answered 500 after the timeout).
    expect(await deliver('dead-after')).toEqual({ status: 200, ms: expect.any(Number) });
    expect(proxy.opened).toBeGreaterThan(openedBefore);

    // Never a 2xx without a committed row, never a row behind a 5xx (read directly, not via the proxy).
    expect((await storedEventIds(url, 'dead-%')).sort()).toEqual([
      'dead-after',
      'dead-before',
      'dead-queued',
    ]);
    // What on-call sees: the error line naming the event and the cause, and the refusal counter.
    expect(
      logger.lines.filter((l) => l.includes('(dead-during) could not be recorded in the inbox')),
    ).toEqual([expect.stringContaining('PostgreSQL gave no answer to inbox_insert_batch within 2000 ms')]);
    const metrics = await scrapeMetrics(running);
    expect(
      metrics.value('partner_webhooks_received_total', { outcome: 'refused', reason: 'inbox_unavailable' }),
    ).toBe(1);
  });
});
