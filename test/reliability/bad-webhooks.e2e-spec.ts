/**
 * The bad-webhook list (part of the counted reliability suite), against the reference app over
 * a real socket, on SQLite and PostgreSQL. Every refusal gets its status and stores nothing; every
 * authentic delivery is answered 2xx, stored in exactly one row and processed exactly once (read
 * back from the inbox and counted by a handler). The signature is verified on the raw bytes
 * before anything parses them, whatever the content type says (spec 6.1.3); a body that is
 * not UTF-8 is refused (RFC 8259 8.1); ids and names of any length and content are kept whole on
 * both databases. Counts go to the reliability tally.
 */
import { randomUUID } from 'node:crypto';
import { signPartnerWebhook, type PartnerSandbox } from '@partner-payments/testing';
import type { RunningApp } from '../../apps/reference-app/src/app-bootstrap.util';
import { startTestApp, startTestSandbox } from '../setup/app.fixture';
import { DATABASE_KINDS, databaseUrlFor } from '../setup/test-database.fixture';
import {
  BadWebhookTally,
  countHandlerRuns,
  deliver,
  InboxObserver,
  type Answer,
  type Delivery,
} from './bad-webhooks.fixture';

jest.setTimeout(120_000);

const NEW = 'whsec_New-Rotation_b';
const OLD = 'whsec_Old-Rotation_a';
const LIMIT = 1_048_576; // the module's default webhooks.maxBodyBytes

describe.each(DATABASE_KINDS)('bad webhooks at the reference app (%s)', (kind) => {
  let sandbox: PartnerSandbox;
  let running: RunningApp;
  let dbUrl: string;
  let cleanup: () => void;
  let observe: InboxObserver;
  const tally = new BadWebhookTally();

  const boot = async (secrets: string) => {
    running = await startTestApp(dbUrl, { PARTNER_WEBHOOK_SECRET: secrets }, sandbox);
    observe = new InboxObserver(running, countHandlerRuns(running), tally);
  };
  beforeAll(async () => {
    sandbox = await startTestSandbox();
    const db = await databaseUrlFor(kind, 'badhooks');
    dbUrl = db.url;
    cleanup = db.cleanup;
    await boot(`${NEW},${OLD}`);
  });
  afterAll(async () => {
    tally.record(kind);
    await running?.close();
    await sandbox?.close();
    cleanup?.();
  });

  const send = (d: Delivery) => deliver(running.url, d, NEW);
  const newId = (label: string) => `${label}_${randomUUID()}`;
  const user = (eventId: string, extra: Record<string, unknown> = {}) =>
    JSON.stringify({ event: 'user.updated', data: { event_id: eventId, user_id: randomUUID(), ...extra } });

  async function refused(d: Delivery, status: number): Promise<Answer> {
    const before = await observe.rows();
    const answer = await send(d);
    const ok = await observe.refused(answer, status, before);
    expect({ status: answer.status, stored: (await observe.rows()) - before }).toEqual({ status, stored: 0 });
    expect(ok).toBe(true);
    return answer;
  }

  async function acceptedOnce(d: Delivery, eventId?: string) {
    const answer = await send(d);
    const view = await observe.accepted([answer], eventId ?? answer.body.eventId ?? '');
    expect({ status: answer.status, rows: view.rows, state: view.state, runs: view.runs }).toEqual({
      status: 200,
      rows: 1,
      state: 'processed',
      runs: 1,
    });
    expect(view.right).toBe(true);
    return { answer, view };
  }

  describe('signatures (spec 6.1.3): 401, nothing stored', () => {
    const body = () => user(newId('sig'));
    it.each<[string, () => Delivery]>([
      ['missing', () => ({ body: body(), signature: null })],
      ['empty', () => ({ body: body(), signature: '' })],
      ['not hex', () => ({ body: body(), signature: 'zz'.repeat(32) })],
      ['too short', () => ({ body: body(), signature: 'ab'.repeat(31) })],
      ['odd length', () => ({ body: body(), signature: 'a'.repeat(63) })],
      ['too long', () => ({ body: body(), signature: 'ab'.repeat(33) })],
      ["another body's", () => ({ body: body(), signature: signPartnerWebhook(body(), NEW) })],
      ['the secret in another case', () => ({ body: body(), secret: NEW.toUpperCase() })],
      ['a secret never configured', () => ({ body: body(), secret: 'whsec_someone_else' })],
    ])('%s', async (_label, make) => {
      const answer = await refused(make(), 401);
      expect(answer.body.code).toBe('invalid_signature');
    });

    it('one flipped byte in a signed body', async () => {
      const raw = Buffer.from(body());
      const signature = signPartnerWebhook(raw, NEW);
      raw[raw.length - 3] ^= 0x01;
      await refused({ body: raw, signature }, 401);
    });

    it('an upper-case signature is the same hex: accepted once', async () => {
      const id = newId('upper');
      const raw = user(id);
      await acceptedOnce({ body: raw, signature: signPartnerWebhook(raw, NEW).toUpperCase() }, id);
    });

    it('unsigned bodies are refused before any parsing: not JSON, 100,000 deep, a form', async () => {
      await refused({ body: '{"event": not json', signature: null }, 401);
      await refused({ body: `${'['.repeat(100_000)}${']'.repeat(100_000)}`, signature: null }, 401);
      await refused(
        { body: 'event=user.updated', signature: null, contentType: 'application/x-www-form-urlencoded' },
        401,
      );
    });
  });

  describe('size and transfer', () => {
    const padded = (id: string, bytes: number) => {
      const head = user(id).slice(0, -2) + ',"pad":"';
      return `${head}${'x'.repeat(bytes - head.length - 3)}"}}`;
    };
    it('one byte over the limit: 413 (declared length, and chunked)', async () => {
      expect(Buffer.byteLength(padded('x', LIMIT + 1))).toBe(LIMIT + 1);
      await refused({ body: padded(newId('big'), LIMIT + 1) }, 413);
      await refused({ body: padded(newId('bigchunked'), LIMIT + 1), chunked: true }, 413);
    });
    it('exactly the limit: accepted once', async () => {
      const id = newId('limit');
      await acceptedOnce({ body: padded(id, LIMIT) }, id);
    });
    it('chunked transfer of a signed body: accepted once', async () => {
      const id = newId('chunked');
      await acceptedOnce({ body: user(id, { note: 'y'.repeat(50_000) }), chunked: true }, id);
    });
  });

  describe('content types: the bytes are verified whatever the header says', () => {
    it.each([
      ['none', null],
      ['text/plain', 'text/plain'],
      ['a form', 'application/x-www-form-urlencoded'],
      ['json; charset=utf-8', 'application/json; charset=utf-8'],
      ['json; charset=latin1', 'application/json; charset=latin1'],
      ['octet-stream', 'application/octet-stream'],
    ])('%s: accepted once', async (_label, contentType) => {
      const id = newId('ctype');
      await acceptedOnce({ body: user(id), contentType }, id);
    });
  });

  describe('bodies that are not an event: 400 after the signature, nothing stored', () => {
    it.each([
      ['empty', ''],
      ['not JSON', '{"event": not json'],
      ['an array', '[{"event":"user.updated","data":{"event_id":"a"}}]'],
      ['a string', '"user.updated"'],
      ['null', 'null'],
      ['a number', '42'],
      ['no event', '{"data":{"event_id":"no-event"}}'],
      ['a blank event', '{"event":"  ","data":{"event_id":"blank"}}'],
      ['a non-string event', '{"event":7,"data":{"event_id":"seven"}}'],
    ])('%s', async (_label, raw) => {
      const answer = await refused({ body: raw }, 400);
      expect(answer.body.code).toBe('invalid_payload');
    });

    it('invalid UTF-8: two ids a lossy decoding would merge are both refused, naming the problem', async () => {
      const prefix = Buffer.from('{"event":"user.updated","data":{"event_id":"u8_');
      for (const byte of [0xff, 0xfe]) {
        const raw = Buffer.concat([prefix, Buffer.from([byte]), Buffer.from('"}}')]);
        const answer = await refused({ body: raw }, 400);
        expect(answer.body.message).toBe(
          `Webhook body is not valid UTF-8 (first invalid byte at offset ${prefix.length})`,
        );
      }
    });
  });

  describe('odd but authentic events: 200, one row, processed once', () => {
    it('no data.event_id: de-duplicated on a hash of the body; the same bytes again are a duplicate', async () => {
      const raw = JSON.stringify({ event: 'user.updated', data: { user_id: randomUUID() } });
      const first = await send({ body: raw });
      const again = await send({ body: raw });
      expect(first.body.eventId).toMatch(/^sha256:[0-9a-f]{64}$/);
      expect([first.body.status, again.body.status]).toEqual(['accepted', 'duplicate']);
      const view = await observe.accepted([first, again], first.body.eventId!);
      expect(view).toMatchObject({ right: true, rows: 1, runs: 1 });
    });

    it('event_id only at the root (the legacy envelope): not used; a body hash stands in', async () => {
      const root = newId('root');
      const { answer } = await acceptedOnce({
        body: JSON.stringify({ event: 'user.updated', event_id: root, data: { user_id: randomUUID() } }),
      });
      expect(answer.body.eventId).toMatch(/^sha256:/);
    });

    it.each([
      ['unknown', 'user.document.download.failed'],
      ['very long', `partner.${'n'.repeat(10_000)}`],
      ['unicode', 'payout.événement.✓.😀'],
      ['with U+0000', 'payout.com\u0000pleted'],
      ['with a lone surrogate', 'payout.\ud800'],
    ])('an event name %s: acknowledged as unknown (spec 6.1.5)', async (_label, name) => {
      const id = newId('name');
      const { answer } = await acceptedOnce(
        { body: JSON.stringify({ event: name, data: { event_id: id } }) },
        id,
      );
      expect(answer.body.status).toBe('unknown');
    });

    it.each([
      ['10,000 characters', 'i'.repeat(10_000)],
      ['with U+0000', `nul\u0000${randomUUID()}`],
      ['a lone high surrogate', `lone_\ud800_${kind}`],
      ['a lone low surrogate (UTF-8 would merge the two)', `lone_\udc00_${kind}`],
    ])('an event id %s: kept whole', async (_label, id) => {
      const { answer } = await acceptedOnce({ body: user(id) }, id);
      expect(answer.body.eventId).toBe(id);
    });

    it('deep nesting (100,000 levels inside data)', async () => {
      const id = newId('deep');
      await acceptedOnce(
        { body: user(id).slice(0, -2) + `,"deep":${'['.repeat(100_000)}${']'.repeat(100_000)}}}` },
        id,
      );
    });

    it('a huge array (200,000 items)', async () => {
      const id = newId('array');
      await acceptedOnce({ body: user(id, { items: new Array(200_000).fill(1) }) }, id);
    });

    it('prototype keys (__proto__, constructor) are data, never the prototype', async () => {
      const id = newId('proto');
      const raw =
        `{"event":"user.updated","__proto__":{"polluted":true},"constructor":{"prototype":{"polluted":true}},` +
        `"data":{"event_id":"${id}","user_id":"${randomUUID()}","__proto__":{"admin":true},"constructor":{"prototype":{"admin":true}}}}`;
      await acceptedOnce({ body: raw }, id);
      const plain = {} as Record<string, unknown>;
      expect([plain.polluted, plain.admin]).toEqual([undefined, undefined]);
    });

    it('a leading BOM: accepted, the exact bytes kept', async () => {
      const id = newId('bom');
      const raw = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(user(id))]);
      const { view } = await acceptedOnce({ body: raw }, id);
      expect(Buffer.from(view.rawBody ?? '', 'utf8').equals(raw)).toBe(true);
    });
  });

  describe('bursts', () => {
    it('the same event 50 times at once: 50 answers 200, one accepted, one row, processed once', async () => {
      const id = newId('same50');
      const raw = user(id);
      const answers = await Promise.all(Array.from({ length: 50 }, () => send({ body: raw })));
      const view = await observe.accepted(answers, id);
      expect(answers.map((a) => a.status)).toEqual(new Array(50).fill(200));
      expect(answers.filter((a) => a.body.status === 'accepted')).toHaveLength(1);
      expect(view).toMatchObject({ right: true, rows: 1, runs: 1, state: 'processed' });
    });

    it('500 distinct events at once: each answered 200, stored once, processed once', async () => {
      const ids = Array.from({ length: 500 }, (_, i) => newId(`burst${i}`));
      const answers = await Promise.all(ids.map((id) => send({ body: user(id) })));
      const views = [];
      for (const [i, id] of ids.entries()) views.push(await observe.accepted([answers[i]], id, false));
      observe.input(views.every((v) => v.right));
      expect(answers.filter((a) => a.status === 200)).toHaveLength(500);
      expect(views.filter((v) => v.right)).toHaveLength(500);
    });
  });

  describe('a retired secret (rotation)', () => {
    it('signed with the previous secret: accepted while both are configured, 401 once it is removed', async () => {
      const id = newId('old-secret');
      await acceptedOnce({ body: user(id), secret: OLD }, id);
      await running.close();
      await boot(NEW);
      await refused({ body: user(newId('retired')), secret: OLD }, 401);
      const fresh = newId('new-secret');
      await acceptedOnce({ body: user(fresh) }, fresh);
    });
  });
});
