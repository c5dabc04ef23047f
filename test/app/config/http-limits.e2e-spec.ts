/**
 * The HTTP server's bounds over a real socket: a request trickled a byte at a time is cut off at
 * HTTP_HEADERS_TIMEOUT_MS / HTTP_REQUEST_TIMEOUT_MS (Node answers 408), not held for minutes; a
 * connection past HTTP_MAX_CONNECTIONS is closed at once.
 */
import type { RunningApp } from '../../../apps/reference-app/src/app-bootstrap.util';
import type { PartnerSandbox } from '@partner-payments/testing';
import { eventually, startTestApp, startTestSandbox } from '../../setup/app.fixture';
import { databaseUrlFor } from '../../setup/test-database.fixture';
import { closedWithin, openIdle, trickle } from './http-limits.fixture';

jest.setTimeout(90_000);

const HEADERS_MS = 2_000;
const REQUEST_MS = 4_000;
// Node checks the bounds every second; the rest is room for a loaded machine.
const MARGIN_MS = 6_000;

describe('HTTP server bounds', () => {
  let sandbox: PartnerSandbox;
  let running: RunningApp;
  let cleanup: () => void;
  beforeAll(async () => {
    sandbox = await startTestSandbox();
    const db = await databaseUrlFor('sqlite', 'httplimits');
    cleanup = db.cleanup;
    running = await startTestApp(
      db.url,
      {
        HTTP_HEADERS_TIMEOUT_MS: String(HEADERS_MS),
        HTTP_REQUEST_TIMEOUT_MS: String(REQUEST_MS),
        HTTP_MAX_CONNECTIONS: '20',
      },
      sandbox,
    );
  });
  afterAll(async () => {
    await running?.close();
    await sandbox?.close();
    cleanup?.();
  });

  it('cuts off a webhook body trickled a byte every 500 ms at the request timeout (408)', async () => {
    const body = JSON.stringify({ event: 'user.created', data: { event_id: 'slow', pad: 'x'.repeat(200) } });
    const result = await trickle(running.url, {
      head: `POST /webhooks/partner HTTP/1.1\r\nHost: app\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\nx-signature-sha256: 00\r\n\r\n`,
      trickle: body,
      everyMs: 500,
      giveUpMs: 60_000,
    });
    expect(result.statusLine).toBe('HTTP/1.1 408 Request Timeout');
    expect(result.heldMs).toBeGreaterThanOrEqual(REQUEST_MS - 500);
    expect(result.heldMs).toBeLessThan(REQUEST_MS + MARGIN_MS);
    expect(result.sent).toBeLessThan(body.length); // it was cut off, not answered once complete
  });

  it('cuts off headers trickled a byte every 300 ms at the headers timeout', async () => {
    const head = `GET /health/live HTTP/1.1\r\nHost: app\r\nX-Pad: ${'y'.repeat(200)}\r\n\r\n`;
    const result = await trickle(running.url, { head: '', trickle: head, everyMs: 300, giveUpMs: 60_000 });
    expect(result.heldMs).toBeLessThan(HEADERS_MS + MARGIN_MS);
    expect(result.sent).toBeLessThan(head.length);
  });

  it('closes a connection past HTTP_MAX_CONNECTIONS at once, and serves again once they go', async () => {
    const idle = await openIdle(running.url, 20);
    try {
      // Let the server count them all before the one too many.
      await new Promise((r) => setTimeout(r, 300));
      const [extra] = await openIdle(running.url, 1);
      expect(await closedWithin(extra, 5_000)).toBe(true);
    } finally {
      for (const s of idle) s.destroy();
    }
    // The server counts a connection gone once it has seen it close.
    const live = await eventually(
      () =>
        fetch(`${running.url}/health/live`).then(
          (r) => r.status,
          () => undefined,
        ),
      10_000,
      'a connection accepted again',
    );
    expect(live).toBe(200);
  });
});
