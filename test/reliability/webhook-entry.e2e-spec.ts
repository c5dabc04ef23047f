/**
 * Issue 9 defects 9 and 11 at the reference app's webhook route: the signature is verified on the
 * raw bytes before anything parses them, whatever the content type says. A well-signed body with
 * `charset=latin1` is accepted (it was a 415 from the body parser); an unsigned body is a 401
 * whatever it contains, even when it is not JSON (it was parsed first: a 400 from the parser).
 */
import { signPartnerWebhook, type PartnerSandbox } from '@partner-payments/testing';
import request from 'supertest';
import type { RunningApp } from '../../apps/reference-app/src/app.bootstrap';
import { WebhookInboxEntity } from '../../apps/reference-app/src/database/entities';
import { UnitOfWork } from '../../apps/reference-app/src/database/unit-of-work.service';
import { startTestApp, startTestSandbox } from '../setup/app.helper';
import { databaseUrlFor } from '../setup/test-database.helper';

jest.setTimeout(60_000);

describe('webhook entry: verify the raw bytes first (SQLite)', () => {
  let sandbox: PartnerSandbox;
  let running: RunningApp;
  let cleanup: () => void;

  beforeAll(async () => {
    sandbox = await startTestSandbox();
    const db = await databaseUrlFor('sqlite', 'whentry');
    cleanup = db.cleanup;
    running = await startTestApp(db.url, {}, sandbox);
  });
  afterAll(async () => {
    await running?.close();
    await sandbox?.close();
    cleanup?.();
  });

  const deliver = (raw: string, contentType: string, signature?: string) => {
    const r = request(running.app.getHttpServer()).post('/webhooks/partner').set('content-type', contentType);
    return (signature === undefined ? r : r.set('x-signature-sha256', signature)).send(raw);
  };
  const stored = (eventId: string) =>
    running.app.get(UnitOfWork).run((m) => m.count(WebhookInboxEntity, { where: { eventId } as never }));

  it('a well-signed body with charset=latin1 is accepted and stored once', async () => {
    const raw = JSON.stringify({ event: 'user.updated', data: { event_id: 'evt-latin1', user_id: 'u-1' } });
    const answer = await deliver(
      raw,
      'application/json; charset=latin1',
      signPartnerWebhook(raw, sandbox.webhookSecret),
    );
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({ received: true, eventId: 'evt-latin1' });
    expect(await stored('evt-latin1')).toBe(1);
  });

  it('an unsigned body is 401 before any parsing: invalid JSON, a deep body, a form body alike', async () => {
    for (const [raw, type] of [
      ['{"event": not json', 'application/json'],
      [`${'['.repeat(5000)}${']'.repeat(5000)}`, 'application/json'],
      ['event=user.updated', 'application/x-www-form-urlencoded'],
    ] as const) {
      const answer = await deliver(raw, type);
      expect({ type, status: answer.status }).toEqual({ type, status: 401 });
    }
  });

  it('a signed body that is not JSON is a 400 from the module, after verification', async () => {
    const raw = '{"event": not json';
    const answer = await deliver(raw, 'application/json', signPartnerWebhook(raw, sandbox.webhookSecret));
    expect(answer.status).toBe(400);
  });
});
