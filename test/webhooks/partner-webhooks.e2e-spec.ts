/**
 * The webhook pipeline over real HTTP: PartnerPaymentsModule's ready-made controller on a real port,
 * an app created with rawBody: true, deliveries signed here (spec 6.1.3).
 */
import { request } from 'node:http';
import { EventEmitter2 } from '@nestjs/event-emitter';
import { PartnerDerivedEvent, PartnerEvent } from '@partner-payments/nestjs';
import { PARTNER_CONTRACT_EVENTS } from '../../libs/partner-payments/src/webhooks/events/partner-event.constants';
import { documentedEventBodies, ProbeInbox, sign } from './webhook-events.fixture';
import { startWebhookTestApp, type WebhookTestApp } from './webhook-app.fixture';

const SECRET = 'whsec_e2e';

async function post(url: string, raw: string | Buffer, headers: Record<string, string>) {
  const res = await fetch(url, {
    method: 'POST',
    body: raw,
    headers: { 'content-type': 'application/json', ...headers },
  });
  const text = await res.text();
  let json: Record<string, unknown> = {};
  try {
    json = JSON.parse(text) as Record<string, unknown>;
  } catch {
    /* not JSON */
  }
  return { status: res.status, json, text };
}
const deliver = (url: string, raw: string, secret = SECRET) =>
  post(url, raw, { 'x-signature-sha256': sign(raw, secret) });

describe('partner webhooks over HTTP (spec 6)', () => {
  let t: WebhookTestApp;
  beforeAll(async () => {
    t = await startWebhookTestApp({ secrets: ['whsec_next', SECRET], maxBodyBytes: 64 * 1024 });
  });
  afterAll(async () => {
    await t?.close();
  });
  it('boots with no webhook warning but the default in-memory inbox one when set up as documented', () => {
    // No inboxStore given here: the module says its default store is not durable, and nothing else.
    expect(t.logs.filter((l) => l.startsWith('warn'))).toEqual([
      expect.stringMatching(
        /^warn Partner webhooks use the default in-memory inbox \(no options\.inboxStore\)/,
      ),
    ]);
  });
  beforeEach(async () => {
    await t.service.processing.drain();
    t.handlers.log.calls.length = 0;
  });

  it('delivers every documented event to its typed handler exactly once', async () => {
    const events = documentedEventBodies();
    for (const { body } of events) {
      const res = await deliver(t.url, JSON.stringify(body));
      expect(res.status).toBe(200);
      expect(res.json).toMatchObject({ received: true, status: 'accepted' });
    }
    await t.service.processing.drain();
    for (const name of PARTNER_CONTRACT_EVENTS)
      expect({ name, n: t.handlers.log.count(name) }).toEqual({ name, n: 1 });
    const completed = t.handlers.log.calls.find((c) => c.handler === 'payout.completed')?.event;
    expect(completed).toMatchObject({
      status: 'COMPLETED',
      rawStatus: 'completed',
      payload: { reference_number: 'IMAD-1' },
    });
    // one unified status per payout delivery, nothing remembered between them: failed and returned
    // both resolve the payout to FAILED (spec 3.4), so FAILED comes twice
    const statuses = t.handlers.log.calls
      .filter((c) => c.handler === PartnerDerivedEvent.PayoutStatus)
      .map((c) => (c.event as { status: string }).status);
    expect(statuses).toEqual([
      'CREATED',
      'PENDING',
      'PROCESSING',
      'IN_REVIEW',
      'COMPLETED',
      'FAILED',
      'FAILED',
    ]);
  });

  it('absorbs duplicate deliveries, also concurrent ones (spec 6.1.4)', async () => {
    const [{ body }] = documentedEventBodies();
    const raw = JSON.stringify(body);
    const results = await Promise.all(Array.from({ length: 8 }, () => deliver(t.url, raw)));
    expect(results.map((r) => r.status)).toEqual(Array(8).fill(200));
    expect(results.filter((r) => r.json.status === 'accepted')).toHaveLength(1);
    expect(results.filter((r) => r.json.status === 'duplicate')).toHaveLength(7);
    await t.service.processing.drain();
    expect(t.handlers.log.count('user.created')).toBe(1);
  });

  it('accepts a delivery signed with either secret during a rotation', async () => {
    const [a, b] = documentedEventBodies().slice(0, 2);
    expect((await deliver(t.url, JSON.stringify(a.body), 'whsec_next')).status).toBe(200);
    expect((await deliver(t.url, JSON.stringify(b.body), SECRET)).status).toBe(200);
  });

  it('answers 401 with a JSON reason for bad signatures, and emits nothing', async () => {
    const raw = JSON.stringify(documentedEventBodies()[0].body);
    const cases: Array<[Record<string, string>, string]> = [
      [{}, 'missing_header'],
      [{ 'x-signature-sha256': 'not-hex!' }, 'not_hex'],
      [{ 'x-signature-sha256': 'abc' }, 'odd_length'],
      [{ 'x-signature-sha256': 'abcd' }, 'wrong_length'],
      [{ 'x-signature-sha256': sign(raw, SECRET.toUpperCase()) }, 'mismatch'],
      [{ 'x-signature-sha256': sign(raw.replace('"user.created"', '"user.updated"'), SECRET) }, 'mismatch'],
    ];
    for (const [headers, reason] of cases) {
      const res = await post(t.url, raw, headers);
      expect({ status: res.status, reason: res.json.reason }).toEqual({ status: 401, reason });
      expect(res.json.message).toEqual(expect.stringContaining('x-signature-sha256'));
    }
    await t.service.processing.drain();
    expect(t.handlers.log.calls).toHaveLength(0);
    expect(t.logs.join('\n')).not.toContain(SECRET);
  });

  it('verifies the bytes as sent: whitespace that JSON.parse would lose still counts', async () => {
    const raw = JSON.stringify(documentedEventBodies()[1].body, null, 2);
    const compact = JSON.stringify(JSON.parse(raw));
    expect((await post(t.url, raw, { 'x-signature-sha256': sign(compact, SECRET) })).status).toBe(401);
    expect((await deliver(t.url, raw)).status).toBe(200);
  });

  it('verifies bodies of any content type (raw bytes read by the guard)', async () => {
    const raw = JSON.stringify(documentedEventBodies()[1].body);
    const res = await post(t.url, raw, {
      'content-type': 'text/plain',
      'x-signature-sha256': sign(raw, SECRET),
    });
    expect(res.status).toBe(200);
    await t.service.processing.drain();
    expect(t.handlers.log.count('user.updated')).toBe(1);
  });

  it('verifies the bytes as sent: unicode escapes and a UTF-8 BOM are signed as they are, and parsed', async () => {
    // JSON.stringify(JSON.parse(raw)) would turn \u00e9 into é and drop the BOM: other bytes.
    const escaped = '{"event":"user.updated","data":{"event_id":"esc-1","user_id":"Jos\\u00e9"}}';
    const reserialised = JSON.stringify(JSON.parse(escaped));
    expect(reserialised).not.toBe(escaped);
    expect((await post(t.url, escaped, { 'x-signature-sha256': sign(reserialised, SECRET) })).status).toBe(
      401,
    );
    expect((await deliver(t.url, escaped)).json).toMatchObject({ status: 'accepted', eventId: 'esc-1' });

    const bomJson = Buffer.concat([
      Buffer.from([0xef, 0xbb, 0xbf]),
      Buffer.from('{"event":"user.updated","data":{"event_id":"bom-1","user_id":"u"}}'),
    ]);
    for (const [contentType, id] of [
      ['application/json', 'bom-1'],
      ['text/plain', 'bom-2'],
    ]) {
      const raw = Buffer.from(bomJson.toString('latin1').replace('bom-1', id), 'latin1');
      expect(raw[0]).toBe(0xef);
      const unsigned = await post(t.url, raw, {
        'content-type': contentType,
        'x-signature-sha256': sign(raw.subarray(3), SECRET),
      });
      expect({ contentType, status: unsigned.status }).toEqual({ contentType, status: 401 });
      const res = await post(t.url, raw, {
        'content-type': contentType,
        'x-signature-sha256': sign(raw, SECRET),
      });
      expect({ contentType, status: res.status, json: res.json }).toMatchObject({
        contentType,
        status: 200,
        json: { status: 'accepted', eventId: id },
      });
    }
    await t.service.processing.drain();
    const userIds = t.handlers.log.calls
      .filter((c) => c.handler === 'user.updated')
      .map((c) => (c.event as { payload: { user_id: string } }).payload.user_id);
    expect(userIds).toEqual(['Jos\u00e9', 'u', 'u']);
  });

  it('answers 400 for a validly signed body that is not JSON or has no event, logs it, and emits nothing', async () => {
    t.logs.length = 0;
    for (const raw of ['{"data":{"event_id":"x"}}', '[1,2]']) {
      const res = await deliver(t.url, raw);
      expect(res.status).toBe(400);
      expect(res.json.code).toBe('invalid_payload');
    }
    const text = 'plain words';
    expect(
      (await post(t.url, text, { 'content-type': 'text/plain', 'x-signature-sha256': sign(text, SECRET) }))
        .status,
    ).toBe(400);
    await t.service.processing.drain();
    expect(t.handlers.log.calls).toHaveLength(0);
    expect(t.logs).toEqual([
      expect.stringMatching(/^warn Partner webhook refused \(400\): Webhook body has no `event` name/),
      expect.stringMatching(/^warn Partner webhook refused \(400\): Webhook body is not a JSON object/),
      expect.stringMatching(/^warn Partner webhook refused \(400\): Webhook body is not valid JSON/),
    ]);
  });

  it('answers 413 beyond maxBodyBytes', async () => {
    const body = { event: 'user.updated', data: { event_id: 'big', pad: 'x'.repeat(70 * 1024) } };
    const raw = JSON.stringify(body);
    const res = await deliver(t.url, raw);
    expect(res.status).toBe(413);
    const plain = await post(t.url, raw, {
      'content-type': 'text/plain',
      'x-signature-sha256': sign(raw, SECRET),
    });
    expect(plain.status).toBe(413);
    // chunked, no Content-Length: the guard counts the bytes as it reads them
    const chunked = await new Promise<{ status: number; body: string }>((resolve, reject) => {
      const req = request(
        t.url,
        {
          method: 'POST',
          headers: { 'content-type': 'text/plain', 'x-signature-sha256': sign(raw, SECRET) },
        },
        (res) => {
          let text = '';
          res.setEncoding('utf8');
          res.on('data', (c: string) => (text += c));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text }));
        },
      );
      req.on('error', reject);
      for (let i = 0; i < raw.length; i += 8192) req.write(raw.slice(i, i + 8192));
      req.end();
    });
    expect(chunked.status).toBe(413);
    expect(JSON.parse(chunked.body)).toMatchObject({ code: 'payload_too_large', limitBytes: 64 * 1024 });
    await t.service.processing.drain();
    expect(t.handlers.log.calls).toHaveLength(0);
  });

  it('acknowledges unknown event types and emits them on the unknown stream (spec 6.1.5)', async () => {
    const raw = JSON.stringify({
      event: 'user.document.download.failed',
      data: { event_id: 'rfi-evt-1', user_id: 'u1' },
    });
    const res = await deliver(t.url, raw);
    expect(res.json).toMatchObject({ received: true, status: 'unknown', eventId: 'rfi-evt-1' });
    await t.service.processing.drain();
    expect(t.handlers.log.calls).toEqual([
      {
        handler: PartnerDerivedEvent.Unknown,
        event: expect.objectContaining({ name: 'user.document.download.failed', known: false }),
      },
    ]);
  });
});

describe('partner webhooks: the event is kept before the 2xx (spec 6.1.4, no retries)', () => {
  let t: WebhookTestApp;
  const inbox = new ProbeInbox();
  beforeAll(async () => {
    t = await startWebhookTestApp({ inboxStore: inbox });
  });
  afterAll(async () => {
    await t?.close();
  });
  beforeEach(async () => {
    await t.service.processing.drain();
    t.handlers.log.calls.length = 0;
    inbox.delayMs = 0;
    inbox.failWith = null;
  });

  it('answers 200 only after inbox.record has completed', async () => {
    inbox.delayMs = 150;
    const body = documentedEventBodies()[0].body;
    const eventId = (body.data as { event_id: string }).event_id;
    const res = await deliver(t.url, JSON.stringify(body));
    expect(res.status).toBe(200);
    expect(inbox.recorded.has(eventId)).toBe(true); // already kept when the 2xx arrived
    await t.service.processing.drain();
    expect(inbox.get(eventId)?.state).toBe('processed');
  });

  it('answers before the handlers finish; a failing handler leaves the entry failed (still 200), retried later', async () => {
    const emitter = t.app.get(EventEmitter2);
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    let calls = 0;
    const slowThenFailing = async () => {
      calls += 1;
      if (calls === 1) {
        await gate;
        throw new Error('projection unavailable');
      }
    };
    emitter.on(PartnerEvent.UserUpdated, slowThenFailing);
    try {
      const body = documentedEventBodies()[1].body;
      const eventId = (body.data as { event_id: string }).event_id;
      const res = await deliver(t.url, JSON.stringify(body));
      expect(res.json).toMatchObject({ status: 'accepted', eventId }); // the handler is still waiting
      for (let i = 0; i < 100 && calls === 0; i += 1) await new Promise((r) => setTimeout(r, 5));
      expect(calls).toBe(1); // the handler runs after the answer, and is blocked
      expect(inbox.get(eventId)?.state).toBe('pending');
      release();
      await t.service.processing.drain();
      expect(inbox.get(eventId)).toMatchObject({ state: 'failed', lastError: 'projection unavailable' });

      const retried = await t.service.processing.redeliver(inbox.get(eventId)!);
      expect(retried).toMatchObject({ outcome: 'processed', eventId });
      expect(calls).toBe(2);
      expect(inbox.get(eventId)?.state).toBe('processed');
      expect(t.handlers.log.count('user.updated')).toBe(2); // at least once: handlers must be idempotent
    } finally {
      emitter.off(PartnerEvent.UserUpdated, slowThenFailing);
    }
  });

  it('answers 500 with a JSON body, never 2xx, when inbox.record throws; emits nothing; logs it', async () => {
    inbox.failWith = new Error('database is locked');
    const body = documentedEventBodies()[0].body;
    const eventId = (body.data as { event_id: string }).event_id;
    const res = await deliver(t.url, JSON.stringify(body));
    expect(res.status).toBe(500);
    expect(res.json).toMatchObject({ statusCode: 500, code: 'inbox_unavailable', eventId });
    expect(res.text).not.toContain('database is locked'); // store details stay in the log
    await t.service.processing.drain();
    expect(t.handlers.log.calls).toHaveLength(0);
    expect(inbox.get(eventId)).toBeUndefined();
    expect(t.logs.filter((l) => l.startsWith('error') && l.includes(eventId))).toEqual([
      expect.stringContaining('database is locked'),
    ]);
  });
});

describe('partner webhooks: app set-up errors', () => {
  it('answers 500 saying how to fix it when the app was not created with rawBody: true', async () => {
    const t = await startWebhookTestApp({ rawBody: false });
    try {
      // warned at boot already
      expect(t.logs.join('\n')).toContain('warn Partner webhooks: the app keeps no raw request body');
      const raw = JSON.stringify(documentedEventBodies()[0].body);
      const res = await deliver(t.url, raw, 'whsec_e2e');
      expect(res.status).toBe(500);
      expect(res.json.message).toEqual(
        expect.stringContaining('NestFactory.create(AppModule, { rawBody: true })'),
      );
      await t.service.processing.drain();
      expect(t.handlers.log.calls).toHaveLength(0);
    } finally {
      await t.close();
    }
  });

  it('accepts bodies above the 100 kB Express JSON default once useBodyParser raises it (up to maxBodyBytes)', async () => {
    const body = { event: 'user.updated', data: { event_id: 'big-ok', pad: 'x'.repeat(300 * 1024) } };
    const raw = JSON.stringify(body);
    const defaults = await startWebhookTestApp();
    const raised = await startWebhookTestApp({ jsonLimit: '1mb' });
    try {
      expect((await deliver(defaults.url, raw)).status).toBe(413); // body-parser's own limit
      expect((await deliver(raised.url, raw)).status).toBe(200);
      await raised.service.processing.drain();
      expect(raised.handlers.log.count('user.updated')).toBe(1);
    } finally {
      await defaults.close();
      await raised.close();
    }
  });

  it('serves the controller on the path given in the module extras', async () => {
    const t = await startWebhookTestApp({ controllerPath: '/hooks/pp' });
    try {
      expect(t.url.endsWith('/hooks/pp')).toBe(true);
      const raw = JSON.stringify(documentedEventBodies()[0].body);
      expect((await deliver(t.url, raw)).status).toBe(200);
      expect((await deliver(t.url.replace('/hooks/pp', '/webhooks/partner'), raw)).status).toBe(404);
    } finally {
      await t.close();
    }
  });
});
