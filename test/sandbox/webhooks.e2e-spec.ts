import { createHash } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { signPartnerWebhook, startPartnerSandbox } from '@partner-payments/testing';
import { Api, individual, startReceiver, useWorld } from './sandbox.fixture';
import { fundedSetup } from './funded-setup.fixture';

describe('sandbox: webhook delivery (spec 6.1-6.3)', () => {
  const world = useWorld();

  it('signs x-signature-sha256 = hex HMAC-SHA256 over the exact bytes sent, as JSON', async () => {
    await world.api.call('POST', '/v1/users', { body: individual() });
    const got = await world.receiver.waitFor(3); // user.created, CREATED→VERIFYING, VERIFYING→REVIEW
    for (const r of got) {
      expect(r.validSignature).toBe(true);
      expect(r.headers['x-signature-sha256']).toBe(signPartnerWebhook(r.raw, 'whsec_e2e_secret'));
      expect(r.headers['content-type']).toMatch(/^application\/json/);
    }
    // The receiver records a delivery before it answers; the sandbox records the answer after.
    await world.sandbox.control.flushWebhooks();
    const deliveries = await world.sandbox.control.deliveries();
    expect(deliveries.map((d) => d.body)).toEqual(got.map((r) => r.raw));
    expect(
      deliveries.every((d) => d.outcome === 'delivered' && d.status === 200 && d.url === world.receiver.url),
    ).toBe(true);
  });

  it('signs the UTF-8 bytes actually sent: non-ASCII metadata verifies as received, not once re-serialised with escapes', async () => {
    await world.api.call('POST', '/v1/users', {
      body: individual({ first_name: 'Zoë', metadata: { note: 'café ✓ 東京' } }),
    });
    const [created] = await world.receiver.waitFor(1);
    expect(created.body.event).toBe('user.created');
    expect(created.body.data.metadata).toEqual({ note: 'café ✓ 東京' });
    const bytes = Buffer.from(created.raw, 'utf8');
    expect(bytes.length).toBeGreaterThan(created.raw.length); // multi-byte characters were sent raw
    expect(created.headers['x-signature-sha256']).toBe(signPartnerWebhook(bytes, 'whsec_e2e_secret'));
    const escaped = JSON.stringify(created.body).replace(
      /[\u0080-\uffff]/g,
      (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
    );
    expect(JSON.parse(escaped)).toEqual(created.body);
    expect(signPartnerWebhook(escaped, 'whsec_e2e_secret')).not.toBe(created.headers['x-signature-sha256']);
  });

  it('every envelope is flat { event, data: { event_id } } or V2, with no root event_id (6.2)', async () => {
    const ids = await fundedSetup(world.api);
    const payout = await world.api.call('POST', `/v1/virtual-accounts/${ids.vaId}/payout`, {
      body: { amount: '1.00', currency: 'USD', recipient_id: ids.recipientId },
    });
    await world.sandbox.control.advancePayout(payout.body.id, ['PENDING', 'KYT_PENDING']);
    await world.sandbox.control.simulateDeposit(ids.vaId);
    await world.sandbox.control.flushWebhooks();
    const seen = new Set<string>();
    for (const { body } of world.receiver.received) {
      seen.add(body.event);
      expect(Object.keys(body).sort()).toEqual(['data', 'event']);
      expect(body.data.event_id).toEqual(expect.any(String));
      if (body.event === 'payout.status_changed') {
        expect(body.data).toMatchObject({
          event_type: 'payout.status_changed',
          created_at: expect.any(String),
          data: expect.any(Object),
        });
        expect(body.data.data.status).toBe(body.data.data.status.toUpperCase());
      } else {
        expect(body.data).not.toHaveProperty('data');
        if (body.event.startsWith('payout.')) expect(body.data.status).toBe(body.data.status.toLowerCase());
      }
    }
    expect([...seen].sort()).toEqual(
      [
        'payout.created',
        'payout.pending',
        'payout.status_changed',
        'user.created',
        'user.status_changed',
        'user.verification.accepted',
        'virtual_account.created',
        'virtual_account.deposit_funds_received',
      ].sort(),
    );
    const ids2 = world.receiver.received.map((r) => r.body.data.event_id);
    expect(new Set(ids2).size).toBe(ids2.length);
  });

  it('delivers once and never retries, whatever the receiver answers (6.1.4)', async () => {
    world.receiver.answerWith = 500;
    await world.api.call('POST', '/v1/users', { body: individual() });
    await world.sandbox.control.flushWebhooks();
    await new Promise((r) => setTimeout(r, 300));
    const deliveries = await world.sandbox.control.deliveries();
    expect(world.receiver.received).toHaveLength(deliveries.length);
    expect(deliveries.every((d) => d.status === 500 && d.outcome === 'delivered')).toBe(true);
  });

  it('408, 429 and a receiver timeout are not retried either (2026-04-14 delivers once; provider-facts)', async () => {
    const hits: string[] = [];
    const slow = createServer((req, res) => {
      hits.push(req.url ?? '');
      const answer = req.url === '/408' ? 408 : req.url === '/429' ? 429 : 200;
      setTimeout(() => res.writeHead(answer).end(), req.url === '/slow' ? 2500 : 0);
    });
    await new Promise<void>((resolve) => slow.listen(0, '127.0.0.1', resolve));
    const base = `http://127.0.0.1:${(slow.address() as AddressInfo).port}`;
    // A 1 s timeout: the prompt answers (408, 429) stay well inside it on a loaded CI machine.
    const sandbox = await startPartnerSandbox({ webhookTimeoutMs: 1000 });
    try {
      for (const path of ['/408', '/429', '/slow']) {
        await sandbox.control.setWebhookUrl(`${base}${path}`);
        await sandbox.control.emitEvent('user.updated', { user_id: path });
        await sandbox.control.flushWebhooks();
      }
      await new Promise((r) => setTimeout(r, 2700)); // past the slow answer: no retry came meanwhile
      expect(hits).toEqual(['/408', '/429', '/slow']);
      const deliveries = await sandbox.control.deliveries();
      expect(deliveries.map((d) => [d.outcome, d.status])).toEqual([
        ['delivered', 408],
        ['delivered', 429],
        ['failed', null],
      ]);
    } finally {
      await sandbox.close();
      slow.closeAllConnections();
      await new Promise<void>((resolve) => slow.close(() => resolve()));
    }
  });

  it('an unreachable URL is recorded as failed, not retried; no URL is recorded as no_url', async () => {
    await world.sandbox.control.setWebhookUrl('http://127.0.0.1:1/closed');
    const { eventId } = await world.sandbox.control.emitEvent('user.updated', { user_id: 'u1' });
    const [failed] = await world.sandbox.control.waitForDeliveries({ event: 'user.updated' });
    expect(failed).toMatchObject({ eventId, outcome: 'failed', status: null, error: expect.any(String) });
    await world.sandbox.control.setWebhookUrl(null);
    await world.sandbox.control.emitEvent('user.updated', { user_id: 'u2' });
    const all = await world.sandbox.control.waitForDeliveries({ event: 'user.updated', count: 2 });
    expect(all[1].outcome).toBe('no_url');
    expect(all).toHaveLength(2);
  });

  it('setWebhookUrl moves deliveries to a new receiver (one URL per account)', async () => {
    const second = await startReceiver(['whsec_e2e_secret']);
    try {
      await world.sandbox.control.setWebhookUrl(second.url);
      await world.sandbox.control.emitEvent('user.updated', { user_id: 'u1' });
      await second.waitFor(1);
      expect(second.received[0].validSignature).toBe(true);
      expect(world.receiver.events('user.updated')).toHaveLength(0);
      await expect(world.sandbox.control.setWebhookUrl('not a url')).rejects.toThrow();
    } finally {
      await second.close();
    }
  });

  it('emitEvent builds flat or V2 envelopes; sendUnknownEvent sends a type the receiver does not know', async () => {
    await world.sandbox.control.emitEvent('payout.completed', {
      payout_id: 'p1',
      status: 'completed',
      reference_number: 'R',
      recipient: {},
      metadata: { x: '1' },
    });
    await world.sandbox.control.emitEvent('payout.status_changed', {
      data: { payout_id: 'p1', status: 'COMPLETED' },
    });
    const { eventId } = await world.sandbox.control.sendUnknownEvent('payout.teleported');
    await world.receiver.waitFor(3);
    const [completed, changed, unknown] = world.receiver.received.map((r) => r.body);
    expect(completed.data).not.toHaveProperty('metadata');
    expect(changed.data).toMatchObject({
      event_type: 'payout.status_changed',
      data: { status: 'COMPLETED' },
    });
    expect(unknown).toMatchObject({ event: 'payout.teleported', data: { event_id: eventId } });
  });

  it('sendDuplicate sends the exact same bytes and event_id again', async () => {
    const { eventId } = await world.sandbox.control.emitEvent('user.updated', { user_id: 'u1' });
    await world.sandbox.control.sendDuplicate(eventId);
    await world.sandbox.control.sendDuplicate();
    const got = await world.receiver.waitFor(3);
    expect(got[1].raw).toBe(got[0].raw);
    expect(got[2].raw).toBe(got[0].raw);
    expect(got.every((g) => g.validSignature && g.body.data.event_id === eventId)).toBe(true);
    const deliveries = await world.sandbox.control.deliveries();
    expect(deliveries.map((d) => d.duplicate)).toEqual([false, true, true]);
    await expect(world.sandbox.control.sendDuplicate('no-such-event')).rejects.toThrow();
  });

  it('reorderNext delivers the next events in reverse order', async () => {
    await world.sandbox.control.reorderNext(3);
    const ids = [];
    for (const n of [1, 2, 3])
      ids.push((await world.sandbox.control.emitEvent('user.updated', { user_id: `u${n}` })).eventId);
    await world.sandbox.control.emitEvent('user.updated', { user_id: 'u4' });
    await world.receiver.waitFor(4);
    expect(world.receiver.received.map((r) => r.body.data.user_id)).toEqual(['u3', 'u2', 'u1', 'u4']);
  });

  it('each account has its own URL and secret', async () => {
    const other = await startReceiver(['other_secret']);
    try {
      const client = await world.sandbox.control.createClient({
        webhookUrl: other.url,
        webhookSecret: 'other_secret',
      });
      const api = await new Api(world.sandbox.sandboxBaseUrl, client).login();
      await api.call('POST', '/v1/users', { body: individual() });
      await other.waitFor(3); // user.created and two status changes (it stops in REVIEW)
      expect(other.received.every((r) => r.validSignature)).toBe(true);
      await world.sandbox.control.flushWebhooks();
      expect(world.receiver.received).toHaveLength(0);
    } finally {
      await other.close();
    }
  });
});

describe('sandbox: request log and counters', () => {
  it('logs method, path, route, redacted headers and the body sha256; never the secrets', async () => {
    const sandbox = await startPartnerSandbox({
      credentials: { apiKey: 'very-secret-key', password: 'very-secret-password' },
    });
    try {
      const api = await new Api(sandbox.sandboxBaseUrl, sandbox.credentials).login();
      const body = JSON.stringify(individual());
      await api.call('POST', '/v1/users', {
        rawBody: body,
        headers: { 'content-type': 'application/json' },
        idempotencyKey: false,
      });
      const log = await sandbox.control.requestLog();
      expect(log.map((l) => l.route)).toEqual(['POST /auth', 'POST /v1/users']);
      expect(log[0].bodySha256).toBeNull(); // a hash of the password-bearing body is a password oracle
      expect(log[1]).toMatchObject({
        method: 'POST',
        path: '/sandbox/v1/users', // the path as sent; the route template drops the base
        status: 400,
        bodySha256: createHash('sha256').update(body).digest('hex'),
      });
      expect(log[1].headers['x-api-key']).toBe('[redacted]');
      expect(log[1].headers.authorization).toBe('[redacted]');
      const text = JSON.stringify(log);
      expect(text).not.toContain('very-secret-key');
      expect(text).not.toContain('very-secret-password');
      expect(text).not.toContain(api.token);
      expect((await sandbox.control.counters()).requests).toEqual({ 'POST /auth': 1, 'POST /v1/users': 1 });
      await sandbox.control.reset();
      expect(await sandbox.control.requestLog()).toEqual([]);
      expect((await sandbox.control.counters()).authCalls).toBe(0);
      expect((await api.call('GET', '/v1/users')).status).toBe(401);
    } finally {
      await sandbox.close();
    }
  });
});
