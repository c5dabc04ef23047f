/**
 * Readiness and the inbox's writes: with the database answering `SELECT 1` but refusing writes
 * (SQLite full, PostgreSQL read-only), deliveries are answered 500 and would be lost (spec 6.1.4:
 * never re-sent), so readiness must answer 503 naming the inbox, and 200 again once a delivery
 * can be recorded. Over a real socket, on a SQLite file and on PostgreSQL.
 */
import { randomUUID } from 'node:crypto';
import type { PartnerSandbox } from '@partner-payments/testing';
import request from 'supertest';
import type { RunningApp } from '../../../apps/reference-app/src/app-bootstrap.util';
import { deliverSignedWebhook, eventually, startTestApp, startTestSandbox } from '../../setup/app.fixture';
import { DATABASE_KINDS, databaseUrlFor } from '../../setup/test-database.fixture';
import { makeInboxUnableToRecord, paddedEvent } from './inbox-write.fixture';

jest.setTimeout(90_000);

describe.each(DATABASE_KINDS)('readiness when the inbox cannot record (%s)', (kind) => {
  let sandbox: PartnerSandbox;
  let running: RunningApp;
  let url: string;
  let cleanup: () => void;
  beforeAll(async () => {
    sandbox = await startTestSandbox();
    ({ url, cleanup } = await databaseUrlFor(kind, 'inboxwrite'));
    running = await startTestApp(url, {}, sandbox);
  });
  afterAll(async () => {
    await running?.close();
    await sandbox?.close();
    cleanup?.();
  });

  const ready = () => request(running.app.getHttpServer()).get('/health/ready');
  const deliver = (raw: string) => deliverSignedWebhook(running, raw, sandbox.webhookSecret);

  it('503 naming the inbox while deliveries cannot be stored (SELECT 1 still answers), 200 once they can', async () => {
    await ready().expect(200);
    const raw = paddedEvent(`evt_${randomUUID()}`, 256);
    const full = await makeInboxUnableToRecord(kind, running, url);
    let restored = false;
    try {
      // The delivery that cannot be stored is answered 500 (the partner would not re-send it).
      const refused = await eventually(
        async () => {
          const answer = await deliver(raw);
          return answer.status === 500 ? answer : undefined;
        },
        10_000,
        'a delivery refused by the database',
      );
      expect(refused.body).toMatchObject({ code: 'inbox_unavailable' });
      const down = await ready();
      expect(down.status).toBe(503);
      expect(down.body.details.database).toMatchObject({ status: 'up' });
      expect(down.body.error.inboxWrite).toMatchObject({
        status: 'down',
        message: expect.stringContaining('the inbox cannot record deliveries') as string,
      });
      await full.restore();
      restored = true;
      await eventually(
        async () => ((await ready()).status === 200 ? true : undefined),
        20_000,
        'ready again',
      );
      expect((await ready()).body.details.inboxWrite).toEqual({ status: 'up' });
      expect((await deliver(raw)).status).toBe(200);
    } finally {
      if (!restored) await full.restore();
    }
  });
});
