/**
 * The app listens before its first partner call. With the partner's /auth and version call slowed
 * by several seconds, the port already accepts a signed webhook (stored, 200) and readiness says
 * `starting` (200); once the start-up calls return, `started`. An app that awaited the pin (and so
 * the slow /auth) before listening fails here.
 */
import { randomUUID } from 'node:crypto';
import { signPartnerWebhook, type PartnerSandbox } from '@partner-payments/testing';
import request from 'supertest';
import type { RunningApp } from '../../../apps/reference-app/src/app-bootstrap.util';
import { PartnerUnitOfWork, PartnerWebhookInboxEntity } from '@partner-payments/typeorm';
import { startTestApp, startTestSandbox } from '../../setup/app.fixture';
import { databaseUrlFor } from '../../setup/test-database.fixture';

jest.setTimeout(60_000);

const LATENCY_MS = 3000;

describe('start-up against a slow partner (SQLite)', () => {
  let sandbox: PartnerSandbox;
  let running: RunningApp | undefined;
  let cleanup: () => void;

  beforeAll(async () => {
    sandbox = await startTestSandbox();
  });
  afterAll(async () => {
    await running?.close();
    await sandbox?.close();
    cleanup?.();
  });

  it('listens at once: a webhook is stored and readiness says starting until the pin and /auth return, then started', async () => {
    for (const route of ['POST /auth', 'POST /v1/versioning/upgrade']) {
      await sandbox.control.addFault({ kind: 'latency', route, latencyMs: LATENCY_MS, times: 1 });
    }
    const db = await databaseUrlFor('sqlite', 'startup');
    cleanup = db.cleanup;
    running = await startTestApp(db.url, {}, sandbox, { waitForStartup: false });
    let finished = false;
    void running.ready.then(() => (finished = true));
    const http = () => request(running!.app.getHttpServer());

    const raw = JSON.stringify({ event: 'user.updated', data: { event_id: `evt-${randomUUID()}` } });
    const delivered = await http()
      .post('/webhooks/partner')
      .set('content-type', 'application/json')
      .set('x-signature-sha256', signPartnerWebhook(raw, sandbox.webhookSecret))
      .send(raw)
      .expect(200);
    const stored = await running.app
      .get(PartnerUnitOfWork)
      .run((m) =>
        m.count(PartnerWebhookInboxEntity, { where: { eventId: delivered.body.eventId } as never }),
      );
    expect(stored).toBe(1);

    // Readiness routes traffic meanwhile (200): starting, and the partner check makes no call.
    const early = await http().get('/health/ready').expect(200);
    expect(early.body.details).toMatchObject({
      startup: { status: 'up', state: 'starting' },
      database: { status: 'up' },
      partner: { status: 'up', state: 'starting' },
    });
    // All of this happened while the first partner call was still held by the latency fault.
    expect(finished).toBe(false);
    expect((await sandbox.control.counters()).requests['POST /v1/versioning/upgrade'] ?? 0).toBe(0);

    await running.ready;
    const later = await http().get('/health/ready').expect(200);
    expect(later.body).toMatchObject({
      status: 'ok',
      details: {
        startup: { status: 'up', state: 'started' },
        database: { status: 'up' },
        partner: { status: 'up', apiVersion: { configured: '2026-04-14', pinned: '2026-04-14' } },
      },
    });
  });
});
