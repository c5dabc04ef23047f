/**
 * Liveness and readiness with @nestjs/terminus. Readiness fails (503, naming the check)
 * when the database is down and recovers when it is back: on PostgreSQL the database stops taking
 * connections and its sessions are ended; on SQLite (one in-process connection) the database does
 * not answer within the probe's 3 s because a transaction holds it. A partner token that cannot be
 * obtained fails readiness (or degrades it, READINESS_REQUIRES_PARTNER=false); a never-processed
 * inbox entry older than READINESS_INBOX_MAX_LAG_SECONDS fails it. Liveness never checks a dependency.
 */
import { randomUUID } from 'node:crypto';
import { PartnerTokenManager } from '../../../libs/partner-payments/src/auth/token-manager.service';
import { signPartnerWebhook, type PartnerSandbox } from '@partner-payments/testing';
import { Client } from 'pg';
import request from 'supertest';
import type { RunningApp } from '../../../apps/reference-app/src/app-bootstrap.util';
import { PartnerUnitOfWork, PartnerWebhookInboxEntity } from '@partner-payments/typeorm';
import { eventually, startTestApp, startTestSandbox } from '../../setup/app.fixture';
import { databaseUrlFor } from '../../setup/test-database.fixture';

jest.setTimeout(90_000);

const ready = (running: RunningApp) => request(running.app.getHttpServer()).get('/health/ready');
const live = (running: RunningApp) => request(running.app.getHttpServer()).get('/health/live');

/** Stops a PostgreSQL database taking connections and ends its sessions; `back()` undoes it. */
async function takePostgresDown(appUrl: string): Promise<{ back(): Promise<void> }> {
  const name = new URL(appUrl).pathname.slice(1);
  const admin = new Client({ connectionString: process.env.TEST_POSTGRES_URL });
  await admin.connect();
  await admin.query(`ALTER DATABASE "${name}" ALLOW_CONNECTIONS false`);
  await admin.query(
    'SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()',
    [name],
  );
  return {
    async back() {
      await admin.query(`ALTER DATABASE "${name}" ALLOW_CONNECTIONS true`);
      await admin.end();
    },
  };
}

describe('health: liveness and readiness', () => {
  let sandbox: PartnerSandbox;
  beforeAll(async () => {
    sandbox = await startTestSandbox();
  });
  afterAll(() => sandbox?.close());

  describe.each(['postgres', 'sqlite'] as const)('readiness and the database (%s)', (kind) => {
    let running: RunningApp;
    let cleanup: () => void;
    let url: string;
    beforeAll(async () => {
      ({ url, cleanup } = await databaseUrlFor(kind, 'health'));
      running = await startTestApp(url, {}, sandbox);
    });
    afterAll(async () => {
      await running?.close();
      cleanup?.();
    });

    it('503 naming the database while it is down, 200 again once it is back; liveness stays 200', async () => {
      expect((await ready(running).expect(200)).body.details.database).toMatchObject({ status: 'up' });
      let release: () => Promise<void>;
      if (kind === 'postgres') {
        const down = await takePostgresDown(url);
        release = () => down.back();
      } else {
        // SQLite has one connection, serialized by the unit of work: held here until released.
        let end!: () => void;
        const held = running.app
          .get(PartnerUnitOfWork)
          .transaction(() => new Promise<void>((resolve) => (end = resolve)));
        release = async () => {
          end();
          await held;
        };
      }
      try {
        const failing = await ready(running).expect(503);
        expect(failing.body).toMatchObject({ status: 'error', error: { database: { status: 'down' } } });
        expect(failing.body.details.partner.status).toBe('up');
        await live(running).expect(200);
      } finally {
        await release();
      }
      // PostgreSQL: the pool opens a new connection for the next query.
      const recovered = await eventually(
        async () => {
          const res = await ready(running);
          return res.status === 200 ? res : undefined;
        },
        15_000,
        'readiness to recover',
      );
      expect(recovered.body.details.database.status).toBe('up');
    });
  });

  describe('readiness and the partner, the inbox (SQLite)', () => {
    let cleanups: Array<() => Promise<void> | void> = [];
    afterEach(async () => {
      for (const c of cleanups.reverse()) await c();
      cleanups = [];
    });
    const start = async (env: Record<string, string>, partner = sandbox): Promise<RunningApp> => {
      const { url, cleanup } = await databaseUrlFor('sqlite', 'health');
      const running = await startTestApp(url, env, partner);
      cleanups.push(cleanup, () => running.close());
      return running;
    };

    it('liveness checks no dependency', async () => {
      const running = await start({});
      const res = await live(running).expect(200);
      expect(res.body).toMatchObject({ status: 'ok', details: { process: { status: 'up' } } });
      expect(Object.keys(res.body.details)).toEqual(['process']);
    });

    it('no partner token obtainable: 503 partner down; degraded (200) with READINESS_REQUIRES_PARTNER=false', async () => {
      const own = await startTestSandbox();
      const strict = await start({}, own);
      const lenient = await start({ READINESS_REQUIRES_PARTNER: 'false' }, own);
      // A cached token still valid is enough: the partner is not called.
      await ready(strict).expect(200);
      await own.close();
      for (const app of [strict, lenient]) app.app.get(PartnerTokenManager).invalidate();
      const failing = await ready(strict).expect(503);
      expect(failing.body.error.partner).toMatchObject({ status: 'down' });
      const degraded = await ready(lenient).expect(200);
      expect(degraded.body).toMatchObject({
        status: 'degraded',
        details: { partner: { status: 'degraded' }, database: { status: 'up' } },
      });
    });

    it('a never-processed inbox entry older than the bound fails readiness; 0 turns the check off', async () => {
      const bounded = await start({ READINESS_INBOX_MAX_LAG_SECONDS: '60' });
      const eventId = `evt-${randomUUID()}`;
      const raw = JSON.stringify({ event: 'user.updated', data: { event_id: eventId } });
      await request(bounded.app.getHttpServer())
        .post('/webhooks/partner')
        .set('content-type', 'application/json')
        .set('x-signature-sha256', signPartnerWebhook(raw, sandbox.webhookSecret))
        .send(raw)
        .expect(200);
      await ready(bounded).expect(200);
      // As if its processing had stalled two minutes ago (the process died before it ran).
      const uow = bounded.app.get(PartnerUnitOfWork);
      await uow.run((m) =>
        m.update(
          PartnerWebhookInboxEntity,
          { eventId },
          { state: 'pending', receivedAt: new Date(Date.now() - 120_000) },
        ),
      );
      const failing = await ready(bounded).expect(503);
      expect(failing.body.error.inbox).toMatchObject({
        status: 'down',
        boundSeconds: 60,
        pending: 1,
      });
      expect(failing.body.error.inbox.oldestPendingSeconds).toBeGreaterThanOrEqual(119);

      const unbounded = await start({ READINESS_INBOX_MAX_LAG_SECONDS: '0' });
      expect(Object.keys((await ready(unbounded).expect(200)).body.details)).not.toContain('inbox');
    });
  });
});
