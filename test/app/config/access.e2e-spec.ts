/**
 * Nothing exposed by default: OPERATOR_TOKEN guards the operator endpoints, APP_API_KEYS
 * (a list, for rotation) the caller endpoints; unset, they are refused, except in the
 * embedded-sandbox demo, which says so at start in one line. A token never reaches a log.
 */
import { existsSync, readFileSync } from 'node:fs';
import { randomUUID } from 'node:crypto';
import { Controller, Get, Module } from '@nestjs/common';
import { APP_GUARD } from '@nestjs/core';
import { Test } from '@nestjs/testing';
import { signPartnerWebhook, type PartnerSandbox } from '@partner-payments/testing';
import request from 'supertest';
import { startApp, type RunningApp } from '../../../apps/reference-app/src/app-bootstrap.util';
import { AccessGuard } from '../../../apps/reference-app/src/common/access.guard';
import { APP_CONFIG, loadAppConfig } from '../../../apps/reference-app/src/config/app.config';
import { CapturingLogger, NEVER, startTestApp, startTestSandbox } from '../../setup/app.fixture';
import { databaseUrlFor } from '../../setup/test-database.fixture';

jest.setTimeout(60_000);

const OPERATOR_TOKEN = 'op-token-7d1f0b93a26c4e58';
const KEY_NEW = 'key-new-3b9e51c0d7a24f86';
const KEY_OLD = 'key-old-c4a06e2f91b35d77';

/** Every operator endpoint of the app, one request each. */
const OPERATOR_ROUTES = [
  ['post', '/reconciliation/run'],
  ['post', '/reconciliation/deposits/run'],
  ['post', '/versioning/pin'],
  ['get', '/versioning'],
  ['post', '/inbox/redeliver'],
  ['get', '/inbox'],
  ['get', '/inbox/dead'],
  ['post', '/inbox/dead/retry'],
] as const;

/** Every caller endpoint; ids are well-formed, so a request the guard lets through reaches the route. */
const CALLER_ROUTES = [
  ['post', '/payouts'],
  ['get', `/payouts/${randomUUID()}`],
  ['get', `/payouts/preview?virtual_account_id=${randomUUID()}&recipient_id=${randomUUID()}&amount=1.00`],
  ['get', `/virtual-accounts/${randomUUID()}/balance`],
] as const;

describe('access with OPERATOR_TOKEN and APP_API_KEYS configured (remote partner)', () => {
  let sandbox: PartnerSandbox;
  let running: RunningApp;
  let cleanup: () => void;
  let dbFile: string;
  const logger = new CapturingLogger();

  beforeAll(async () => {
    sandbox = await startTestSandbox();
    const db = await databaseUrlFor('sqlite', 'access');
    cleanup = db.cleanup;
    dbFile = db.url.slice('sqlite:'.length);
    running = await startTestApp(
      db.url,
      { OPERATOR_TOKEN, APP_API_KEYS: `${KEY_NEW}, ${KEY_OLD}`, LOG_LEVEL: 'verbose' },
      sandbox,
      { logger },
    );
  });
  afterAll(async () => {
    await running?.close();
    await sandbox?.close();
    cleanup?.();
  });

  const http = () => request(running.app.getHttpServer());
  const call = (method: 'get' | 'post', path: string) => http()[method](path);

  it.each(OPERATOR_ROUTES)(
    '%s %s: 200 with the operator token, 401 without or with a wrong one',
    async (method, path) => {
      await call(method, path).set('authorization', `Bearer ${OPERATOR_TOKEN}`).expect(200);
      const missing = await call(method, path).expect(401);
      expect(missing.body.message).toContain('OPERATOR_TOKEN');
      expect(missing.headers['www-authenticate']).toMatch(/^Bearer/);
      const wrong = await call(method, path).set('authorization', `Bearer ${OPERATOR_TOKEN}x`).expect(401);
      expect(wrong.body.message).toBe('operator token not accepted (OPERATOR_TOKEN)');
      // A caller's key is not an operator token, in either header.
      await call(method, path).set('authorization', `Bearer ${KEY_NEW}`).expect(401);
      await call(method, path).set('x-api-key', KEY_NEW).expect(401);
    },
  );

  it.each(CALLER_ROUTES)(
    '%s %s: either key of the rotation list passes, a wrong or missing key is 401',
    async (method, path) => {
      for (const key of [KEY_NEW, KEY_OLD]) {
        const passed = await call(method, path).set('x-api-key', key).send({});
        expect({ key, status: passed.status }).not.toEqual({ key, status: 401 });
      }
      const missing = await call(method, path).send({}).expect(401);
      expect(missing.body.message).toContain('APP_API_KEYS');
      expect(missing.body.message).toContain('X-Api-Key');
      const wrong = await call(method, path)
        .set('x-api-key', `${KEY_NEW.slice(0, -1)}0`)
        .send({})
        .expect(401);
      expect(wrong.body.message).toBe('API key not accepted (APP_API_KEYS)');
      await call(method, path).set('x-api-key', OPERATOR_TOKEN).send({}).expect(401);
    },
  );

  it('a refused POST /payouts reaches neither the database nor the partner', async () => {
    const before = await sandbox.control.counters();
    await http()
      .post('/payouts')
      .set('idempotency-key', randomUUID())
      .send({ virtual_account_id: randomUUID(), recipient_id: randomUUID(), amount: '1.00', currency: 'USD' })
      .expect(401);
    const after = await sandbox.control.counters();
    expect(after.requests['POST /v1/virtual-accounts/:id/payouts'] ?? 0).toBe(
      before.requests['POST /v1/virtual-accounts/:id/payouts'] ?? 0,
    );
  });

  it('GET /health/live, /health/ready and a signed webhook need no credential', async () => {
    await http().get('/health/live').expect(200);
    await http().get('/health/ready').expect(200);
    const raw = JSON.stringify({ event: 'user.updated', data: { event_id: `evt-${randomUUID()}` } });
    await http()
      .post('/webhooks/partner')
      .set('content-type', 'application/json')
      .set('x-signature-sha256', signPartnerWebhook(raw, sandbox.webhookSecret))
      .send(raw)
      .expect(200);
  });

  it('never logs or stores a token or key, at LOG_LEVEL=verbose, whatever was sent', async () => {
    expect(logger.lines.join('\n')).toContain('listening on'); // the capture sees the app's lines
    const text = logger.lines.join('\n');
    const stored = [dbFile, `${dbFile}-wal`]
      .filter((f) => existsSync(f))
      .map((f) => readFileSync(f).toString('latin1'))
      .join('\n');
    for (const secret of [OPERATOR_TOKEN, KEY_NEW, KEY_OLD, `${OPERATOR_TOKEN}x`]) {
      expect({ secret, inLogs: text.includes(secret), inDatabase: stored.includes(secret) }).toEqual({
        secret,
        inLogs: false,
        inDatabase: false,
      });
    }
    // Everything is configured: no start-up line about open or refused endpoints.
    expect(text).not.toMatch(/are OPEN|refuse every request/);
  });
});

describe('access with nothing configured', () => {
  it('outside the demo (a remote partner): operator and caller endpoints are refused, naming the variable', async () => {
    const sandbox = await startTestSandbox();
    const db = await databaseUrlFor('sqlite', 'access-unset');
    const logger = new CapturingLogger();
    const running = await startTestApp(
      db.url,
      { OPERATOR_TOKEN: undefined, APP_API_KEYS: undefined },
      sandbox,
      { logger },
    );
    try {
      const http = () => request(running.app.getHttpServer());
      for (const [method, path] of OPERATOR_ROUTES) {
        const refused = await http()
          [method](path)
          .set('authorization', 'Bearer anything-at-all-0000')
          .expect(401);
        expect(refused.body.message).toBe('operator endpoints are closed: OPERATOR_TOKEN is not configured');
      }
      for (const [method, path] of CALLER_ROUTES) {
        const refused = await http()
          [method](path)
          .set('x-api-key', 'anything-at-all-0000')
          .send({})
          .expect(401);
        expect(refused.body.message).toBe('this endpoint is closed: APP_API_KEYS is not configured');
      }
      await http().get('/health/ready').expect(200);
      expect(logger.lines.filter((l) => l.includes('refuse every request (401)'))).toEqual([
        'operator endpoints (OPERATOR_TOKEN unset) and caller endpoints (APP_API_KEYS unset) refuse every request (401) until configured ReferenceApp',
      ]);
    } finally {
      await running.close();
      await sandbox.close();
      db.cleanup();
    }
  });

  it('in the embedded-sandbox demo: open, and one line at start says so', async () => {
    const { db, logger, running } = await startEmbedded({ DEMO: 'false' });
    try {
      const http = () => request(running.app.getHttpServer());
      for (const [method, path] of OPERATOR_ROUTES) await http()[method](path).expect(200);
      await http().get(`/payouts/${randomUUID()}`).expect(404); // reached the route: unknown payout
      const lines = logger.lines.filter((l) => l.includes('are OPEN'));
      expect(lines).toEqual([
        'embedded-sandbox demo: operator endpoints (OPERATOR_TOKEN unset) and caller endpoints (APP_API_KEYS unset) are OPEN without credentials because this is the demo; set the variables before exposing it ReferenceApp',
      ]);
    } finally {
      await running.close();
      db.cleanup();
    }
  });

  it('in the demo with the variables set: guarded, and the demo flow sends its key through POST /payouts', async () => {
    const { db, logger, running } = await startEmbedded({ OPERATOR_TOKEN, APP_API_KEYS: KEY_NEW });
    try {
      const result = await running.demo!;
      const http = () => request(running.app.getHttpServer());
      await http().get(`/payouts/${result.payoutId}`).expect(401);
      await http().get(`/payouts/${result.payoutId}`).set('x-api-key', KEY_NEW).expect(200);
      await http().post('/reconciliation/run').expect(401);
      expect(logger.lines.join('\n')).not.toMatch(/are OPEN|refuse every request/);
      expect(logger.lines.join('\n')).not.toContain(KEY_NEW);
      // The closing hint shows the header the caller endpoints now want, never the key.
      expect(logger.lines.filter((l) => l.includes('demo done'))).toEqual([
        expect.stringContaining(
          `curl -H "X-Api-Key: <one of APP_API_KEYS>" ${running.url}/payouts/${result.payoutId}`,
        ),
      ]);
    } finally {
      await running.close();
      db.cleanup();
    }
  });
});

describe('a route added later without a mark', () => {
  @Controller('metrics')
  class UnmarkedController {
    @Get()
    metrics(): { up: true } {
      return { up: true };
    }
  }

  it('is operator-only by default', async () => {
    @Module({
      controllers: [UnmarkedController],
      providers: [
        { provide: APP_CONFIG, useValue: loadAppConfig({ PARTNER_BASE_URL: undefined, OPERATOR_TOKEN }) },
        { provide: APP_GUARD, useClass: AccessGuard },
      ],
    })
    class MetricsModule {}
    const moduleRef = await Test.createTestingModule({ imports: [MetricsModule] }).compile();
    const app = moduleRef.createNestApplication({ logger: false });
    await app.init();
    try {
      await request(app.getHttpServer()).get('/metrics').expect(401);
      await request(app.getHttpServer())
        .get('/metrics')
        .set('authorization', `Bearer ${OPERATOR_TOKEN}`)
        .expect(200);
    } finally {
      await app.close();
    }
  });
});

/** The app on the embedded sandbox (PARTNER_BASE_URL unset), as `npm start` runs it, capturing its logs. */
async function startEmbedded(env: Record<string, string>) {
  const db = await databaseUrlFor('sqlite', 'access-demo');
  const logger = new CapturingLogger();
  const running = await startApp({
    env: {
      PORT: '0',
      DATABASE_URL: db.url,
      PARTNER_BASE_URL: undefined,
      RECONCILE_CRON: NEVER,
      INBOX_REDELIVERY_CRON: NEVER,
      VERSION_PIN_CRON: NEVER,
      DEPOSIT_RECONCILE_CRON: NEVER,
      ...env,
    },
    envFile: false,
    host: '127.0.0.1',
    logger,
  });
  await running.ready;
  return { db, logger, running };
}
