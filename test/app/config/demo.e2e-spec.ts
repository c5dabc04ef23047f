/**
 * `npm start` with nothing configured: the embedded sandbox, SQLite, the scripted demo (issue:
 * the demo). Booted through the same startApp as main.ts, on real sockets.
 */
import { PartnerRfisService, PartnerVirtualAccountsService } from '@partner-payments/nestjs';
import request from 'supertest';
import { startApp, type RunningApp } from '../../../apps/reference-app/src/app-bootstrap.util';
import { ConfigValidationError } from '../../../apps/reference-app/src/config/app.config';
import { CapturingLogger, NEVER } from '../../setup/app.fixture';
import { databaseUrlFor } from '../../setup/test-database.fixture';

// Boots real servers and databases; jest.config.js's per-project testTimeout is not applied by Jest.
jest.setTimeout(30_000);

describe('the demo (embedded sandbox, SQLite)', () => {
  let running: RunningApp;
  let cleanup: () => void;
  let env: Record<string, string | undefined>;

  beforeAll(async () => {
    const db = await databaseUrlFor('sqlite', 'demo');
    cleanup = db.cleanup;
    // Only what a test must pin down: a free port, a temp database, no cron ticks during the test.
    env = {
      PORT: '0',
      DATABASE_URL: db.url,
      RECONCILE_CRON: NEVER,
      INBOX_REDELIVERY_CRON: NEVER,
      PARTNER_BASE_URL: undefined,
    };
    running = await startApp({ env, envFile: false, host: '127.0.0.1', logger: false });
  });
  afterAll(async () => {
    await running?.close();
    cleanup?.();
  });

  it('starts the embedded sandbox and registers its own webhook URL on it', async () => {
    expect(running.connection.sandbox).not.toBeNull();
    expect(running.config.partner.baseUrl).toBeNull();
    expect(running.config.demo).toBe(true);
  });

  it('runs the scripted flow: webhooks bring a V2 hold, reconciliation resolves it from the resource', async () => {
    expect(running.demo).not.toBeNull();
    const result = await running.demo!;
    expect(result.heldStatus).toBe('KYT_PENDING');
    expect(result.finalStatus).toBe('COMPLETED');
    const payout = await request(running.app.getHttpServer()).get(`/payouts/${result.payoutId}`).expect(200);
    expect(payout.body).toMatchObject({
      status: 'COMPLETED',
      previous_status: 'KYT_PENDING',
      last_source: 'reconciliation',
      amount: '125.00',
    });
    const deliveries = await running.connection.sandbox!.control.deliveries();
    expect(
      deliveries.some(
        (d) =>
          d.event === 'payout.status_changed' &&
          d.status === 200 &&
          d.url === `${running.url}/webhooks/partner`,
      ),
    ).toBe(true);
    const health = await request(running.app.getHttpServer()).get('/health/ready').expect(200);
    expect(health.body).toMatchObject({
      status: 'ok',
      details: { partner: { apiVersion: { pinned: '2026-04-14' } } },
    });
  });

  it("answers the RFI the sandbox seeds on the demo user through the app's endpoints", async () => {
    const result = await running.demo!;
    expect(result.rfi.status).toBe('answered');
    const rfi = await running.app.get(PartnerRfisService).get(result.rfi.rfiId);
    expect(rfi.user_id).toBe(result.userId);
    expect(rfi.items.map((i) => [i.answer_type, i.status])).toEqual([
      ['text_short', 'answered'],
      ['choice', 'answered'],
      ['document', 'answered'],
    ]);
    expect(rfi.items[2].documents).toHaveLength(1);
    const calls = (await running.connection.sandbox!.control.requestLog()).map((l) => l.route);
    expect(calls).toEqual(
      expect.arrayContaining(['PATCH /v1/rfis/:id/items', 'POST /v1/rfis/:id/items/:id/documents']),
    );
    const held = await request(running.app.getHttpServer()).get(`/rfis/${result.rfi.rfiId}`).expect(200);
    expect(held.body).toMatchObject({ status: 'answered', stale: false });
  });

  it('pins a fresh embedded sandbox again when restarted on the same database file, and says the earlier payouts are unknown to it', async () => {
    await running.demo;
    await running.close();
    const logger = new CapturingLogger();
    running = await startApp({
      env: { ...env, DEMO: 'false' },
      envFile: false,
      host: '127.0.0.1',
      logger,
    });
    // The first run's payout is in the file; the new sandbox (in memory) has none.
    expect(logger.lines.filter((l) => l.includes('from an earlier run'))).toEqual([
      expect.stringContaining('the database holds 1 payout(s) from an earlier run'),
    ]);
    expect(logger.lines.join('\n')).toContain('-wal and -shm files');
    await running.ready; // the pin runs after listen
    const counters = await running.connection.sandbox!.control.counters();
    expect(counters.requests['POST /v1/versioning/upgrade']).toBe(1);
    const ready = await request(running.app.getHttpServer()).get('/health/ready').expect(200);
    expect(ready.body.details.partner.apiVersion).toEqual({
      configured: '2026-04-14',
      pinned: '2026-04-14',
    });
  });
});

describe('configuration validated at boot', () => {
  it('refuses to start on a bad variable, naming it, before anything listens', async () => {
    await expect(
      startApp({ env: { PORT: 'eighty', RECONCILE_BATCH_SIZE: '0' }, envFile: false, logger: false }),
    ).rejects.toThrow(ConfigValidationError);
    await expect(startApp({ env: { PORT: 'eighty' }, envFile: false, logger: false })).rejects.toThrow(
      /PORT/,
    );
  });

  it('requires the credentials when PARTNER_BASE_URL points at a real partner', async () => {
    await expect(
      startApp({ env: { PARTNER_BASE_URL: 'https://partner.example' }, envFile: false, logger: false }),
    ).rejects.toThrow(/PARTNER_API_KEY.*PARTNER_CLIENT_ID|PARTNER_CLIENT_ID.*PARTNER_API_KEY/);
  });
});

describe('logs (demo at debug level, a re-authentication, a bad signature)', () => {
  it('never carry the api key, password, bearer token, webhook secret or a full account number', async () => {
    const db = await databaseUrlFor('sqlite', 'logs');
    const logger = new CapturingLogger();
    const running = await startApp({
      env: {
        PORT: '0',
        DATABASE_URL: db.url,
        RECONCILE_CRON: NEVER,
        INBOX_REDELIVERY_CRON: NEVER,
        PARTNER_BASE_URL: undefined,
        LOG_LEVEL: 'debug',
      },
      envFile: false,
      host: '127.0.0.1',
      logger,
    });
    try {
      const result = await running.demo!;
      const sandbox = running.connection.sandbox!;
      const http = () => request(running.app.getHttpServer());
      // A token refresh, and a delivery signed with the wrong secret.
      await sandbox.control.expireTokensNow();
      await http().post('/reconciliation/run').expect(200);
      await http()
        .post('/webhooks/partner')
        .set('content-type', 'application/json')
        .set('x-signature-sha256', 'ab'.repeat(32))
        .send('{"event":"payout.completed","data":{"event_id":"forged"}}')
        .expect(401);

      const text = logger.lines.join('\n');
      // A fresh database: nothing from an earlier run to warn about.
      expect(text).not.toContain('from an earlier run');
      // No APP_API_KEYS: the closing hint needs no header.
      expect(text).toContain(`demo done. Try: curl ${running.url}/payouts/${result.payoutId} `);
      expect(text).toContain(`the app keeps running at ${running.url}`);
      expect(text).toContain('stop both with Ctrl+C');
      expect(text).toContain(result.payoutId); // the capture does see the app's lines
      expect(text).toContain('Partner token obtained');
      const secrets = [
        sandbox.credentials.apiKey,
        sandbox.credentials.password,
        sandbox.webhookSecret,
        '000123456789', // the demo recipient's account number
      ];
      // The virtual account's full number, as the partner holds it (the demo logs its last 4).
      const va = await running.app.get(PartnerVirtualAccountsService).get(result.virtualAccountId);
      expect(va.account_number).toMatch(/^\d{8,}$/);
      secrets.push(va.account_number!);
      for (const secret of secrets) expect(text).not.toContain(secret);
      expect(text).not.toMatch(/eyJ[\w-]+\.[\w-]+\.[\w-]+/); // sandbox bearer tokens (JWTs)
      expect(text).not.toMatch(/Bearer\s+\S{8,}/);
    } finally {
      await running.close();
      db.cleanup();
    }
  });
});
