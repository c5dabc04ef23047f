/**
 * Raw-byte verification (spec 6.1.3) on every path Express routes to the webhook controller: its
 * router is case-insensitive, so `/WEBHOOKS/partner` reaches the same handler as `/webhooks/partner`.
 * The signature is verified on the raw bytes before anything parses them on every such path: an
 * unsigned deep body is a cheap 401 (not parsed, not a 400 from the depth check), and an authentic
 * delivery is accepted whatever its content type says (not a 415 from the app's JSON-only rule or
 * the body parser's charset check). Also: the app's own JSON routes take small bodies, so an
 * unauthenticated caller cannot make it parse a megabyte anywhere. SQLite.
 */
import { randomUUID } from 'node:crypto';
import { signPartnerWebhook, type PartnerSandbox } from '@partner-payments/testing';
import request from 'supertest';
import type { RunningApp } from '../../../apps/reference-app/src/app-bootstrap.util';
import { appRequest, startTestApp, startTestSandbox } from '../../setup/app.fixture';
import { databaseUrlFor } from '../../setup/test-database.fixture';

jest.setTimeout(60_000);

describe('webhook route variants and body limits (SQLite)', () => {
  let sandbox: PartnerSandbox;
  let running: RunningApp;
  let cleanup: () => void;

  beforeAll(async () => {
    sandbox = await startTestSandbox();
    const db = await databaseUrlFor('sqlite', 'hookpaths');
    cleanup = db.cleanup;
    running = await startTestApp(db.url, {}, sandbox);
  });
  afterAll(async () => {
    await running?.close();
    await sandbox?.close();
    cleanup?.();
  });

  // A string, sent as its bytes (superagent would JSON-serialise a Buffer under a JSON content type).
  const post = (path: string, body: string, headers: Record<string, string>) =>
    request(running.app.getHttpServer()).post(path).set(headers).send(body);
  const event = () =>
    JSON.stringify({
      event: 'user.updated',
      data: { event_id: `path_${randomUUID()}`, user_id: randomUUID() },
    });

  it.each(['/WEBHOOKS/partner', '/Webhooks/Partner'])(
    'POST %s with an unsigned 50,000-deep JSON body: 401 from the signature check, never parsed',
    async (path) => {
      const deep = `${'{"a":'.repeat(50_000)}1${'}'.repeat(50_000)}`;
      const answer = await post(path, deep, { 'content-type': 'application/json' });
      expect(answer.status).toBe(401);
      expect(answer.body.code).toBe('invalid_signature');
    },
  );

  it.each([
    ['/Webhooks/partner', 'application/json; charset=latin1'],
    ['/WEBHOOKS/partner', 'text/plain'],
  ])('POST %s, authentic, content type %s: 200 accepted', async (path, contentType) => {
    const body = event();
    const answer = await post(path, body, {
      'content-type': contentType,
      'x-signature-sha256': signPartnerWebhook(body, sandbox.webhookSecret),
    });
    expect({ status: answer.status, accepted: answer.body.status }).toEqual({
      status: 200,
      accepted: 'accepted',
    });
  });

  it('POST /payouts with a 200 kB JSON body: 413 before it is parsed (the app takes small bodies)', async () => {
    const big = JSON.stringify({ amount: '1.00', pad: 'x'.repeat(200_000) });
    const answer = await appRequest(running)
      .post('/payouts')
      .set('Idempotency-Key', randomUUID())
      .set('content-type', 'application/json')
      .send(big);
    expect(answer.status).toBe(413);
  });
});
