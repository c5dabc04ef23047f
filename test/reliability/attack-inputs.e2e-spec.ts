/**
 * Inputs built to hang, stall or rewind a process, against the module's client, the sandbox and
 * the reference app's webhook route, each over a real socket (SQLite). Every input is judged from
 * what was observed (the answer, the time it took, what the server read, whether the connection
 * or stream ended) and counted in one reliability tally row per group.
 */
import { PartnerLocalValidationError, type PartnerPaymentsClient } from '@partner-payments/nestjs';
import { PartnerTimeoutError } from '@partner-payments/nestjs/errors';
import { randomUUID } from 'node:crypto';
import { Readable } from 'node:stream';
import { sampleFile, type PartnerSandbox } from '@partner-payments/testing';
import { Api } from '../sandbox/sandbox.fixture';
import { individual, wireRecipient } from '../setup/partner-inputs.fixture';
import type { RunningApp } from '../../apps/reference-app/src/app-bootstrap.util';
import { partnerClientGraphFor } from '../setup/funded-account.fixture';
import { startTestApp, startTestSandbox } from '../setup/app.fixture';
import { databaseUrlFor } from '../setup/test-database.fixture';
import {
  AttackTally,
  fieldsOf,
  readToEnd,
  sendEndlessBody,
  ServerReadCounter,
  startMisbehavingDownloadServer,
  timed,
  type DownloadMisbehaviour,
} from './attack-inputs.fixture';

jest.setTimeout(120_000);

const WEBHOOK_LIMIT = 1_048_576; // the module's default webhooks.maxBodyBytes

describe('attack inputs (sqlite)', () => {
  let sandbox: PartnerSandbox;
  let running: RunningApp;
  let cleanup: () => void;
  let client: PartnerPaymentsClient;
  let api: Api;
  const tally = new AttackTally();

  beforeAll(async () => {
    sandbox = await startTestSandbox();
    const db = await databaseUrlFor('sqlite', 'attacks');
    cleanup = db.cleanup;
    running = await startTestApp(db.url, {}, sandbox);
    client = partnerClientGraphFor(sandbox).client;
    api = await new Api(sandbox.sandboxBaseUrl, sandbox.credentials).login();
  });
  afterAll(async () => {
    tally.record('sqlite');
    await running?.close();
    await sandbox?.close();
    cleanup?.();
  });

  describe('endless webhook bodies: 413, the connection closed, a bounded read', () => {
    const unsigned = 'ab'.repeat(32);
    it.each([
      ['chunked text/plain', 'text/plain', undefined],
      ['chunked application/json', 'application/json', undefined],
      ['chunked octet-stream', 'application/octet-stream', undefined],
      ['declared 10 GB, sent without end', 'application/json', 10 * 1024 ** 3],
    ])('%s', async (_label, contentType, declared) => {
      const counter = new ServerReadCounter(running.app.getHttpServer());
      const before = counter.bytesRead();
      const out = await sendEndlessBody(
        `${running.url}/webhooks/partner`,
        { 'content-type': contentType, 'x-signature-sha256': unsigned },
        15_000,
        declared,
      );
      const read = counter.bytesRead() - before;
      const right = tally.count(
        'endless webhook body',
        out.status === 413 &&
          out.closedAfterMs !== null &&
          out.closedAfterMs < 10_000 &&
          read < 10 * WEBHOOK_LIMIT,
      );
      expect({ status: out.status, connection: out.connection, closed: out.closedAfterMs !== null }).toEqual({
        status: 413,
        connection: 'close',
        closed: true,
      });
      expect(out.closedAfterMs).toBeLessThan(10_000);
      expect(read).toBeLessThan(10 * WEBHOOK_LIMIT);
      expect(right).toBe(true);
    });
  });

  describe('endless bodies at the sandbox: refused, the connection closed, a bounded read', () => {
    const SANDBOX_LIMIT = 101_000_000; // an upload call: 100 MB of files plus framing
    it.each([
      ['POST /v1/users, chunked JSON', 'users', 'application/json', 413],
      ['POST /v1/users, chunked text', 'users', 'text/plain', 413],
      ['an upload, chunked multipart', 'upload', 'multipart/form-data; boundary=xyz', 422],
    ])('%s', async (_label, route, contentType, status) => {
      const user = await client.users.create(individual());
      const rfi = await sandbox.control.seedRfi({
        userId: user.userId,
        items: [{ answer_type: 'document' }],
      });
      const path =
        route === 'users' ? '/v1/users' : `/v1/rfis/${rfi.rfiId}/items/${rfi.itemIds[0]}/documents`;
      const headers = {
        'content-type': contentType,
        'x-api-key': sandbox.credentials.apiKey,
        authorization: `Bearer ${api.token}`,
        'idempotency-key': randomUUID(),
        'x-api-version': '2026-06-01',
      };
      const out = await sendEndlessBody(`${sandbox.sandboxBaseUrl}${path}`, headers, 15_000);
      const right = tally.count(
        'endless sandbox body',
        out.status === status && out.closedAfterMs !== null && out.bytesWritten < 2 * SANDBOX_LIMIT,
      );
      expect({ status: out.status, closed: out.closedAfterMs !== null }).toEqual({ status, closed: true });
      expect(right).toBe(true);
    });
  });

  describe('regex inputs: a hostile email is refused at once, naming the field', () => {
    const dots = (n: number) => `a@${'.'.repeat(n)}@`;
    const timedAnswer = async <T>(fn: () => Promise<T>): Promise<[T, number]> => {
      const started = performance.now();
      const answer = await fn();
      return [answer, performance.now() - started];
    };
    // Generous bounds: a backtracking regex needs seconds for each of these (50,000 / 80,000 characters).
    const judge = (ms: number, bound: number, fieldsRight: boolean) =>
      tally.count('regex inputs', ms < bound && fieldsRight);

    it('users.create: PartnerLocalValidationError on email, nothing sent', async () => {
      const before = (await sandbox.control.counters()).requests['POST /v1/users'] ?? 0;
      const [error, ms] = await timed(() => client.users.create(individual({ email: dots(50_000) })));
      const sent = ((await sandbox.control.counters()).requests['POST /v1/users'] ?? 0) - before;
      expect(judge(ms, 500, fieldsOf(error)?.join() === 'email' && sent === 0)).toBe(true);
    });

    it('recipients.create: PartnerLocalValidationError on email', async () => {
      const user = await client.users.create(individual());
      const body = wireRecipient(user.userId, { email: dots(50_000) });
      const [error, ms] = await timed(() => client.recipients.create(body));
      expect(judge(ms, 500, fieldsOf(error)?.join() === 'email')).toBe(true);
    });

    it('rfis.answerItems: an email identifier answer refused on items[0].answer_value', async () => {
      const user = await client.users.create(individual());
      const rfi = await sandbox.control.seedRfi({
        userId: user.userId,
        items: [{ answer_type: 'identifier', answer_spec: { format: 'email' } }],
      });
      const knownItems = (await client.rfis.get(rfi.rfiId)).items;
      const answer = [{ item_id: rfi.itemIds[0], answer_value: dots(50_000) }];
      const [error, ms] = await timed(() => client.rfis.answerItems(rfi.rfiId, answer, { knownItems }));
      expect(judge(ms, 500, fieldsOf(error)?.join() === 'items[0].answer_value')).toBe(true);
    });

    it('the sandbox: POST /v1/users and an RFI answer of 80,000 characters get their 400 at once', async () => {
      const [created, ms] = await timedAnswer(() =>
        api.call('POST', '/v1/users', { body: { ...individual(), email: dots(80_000) } }),
      );
      const path = (created.body as { details?: Array<{ path: string }> }).details?.map((d) => d.path);
      expect(judge(ms, 1_500, created.status === 400 && path?.join() === 'email')).toBe(true);
      const user = await client.users.create(individual());
      const rfi = await sandbox.control.seedRfi({
        userId: user.userId,
        items: [{ answer_type: 'identifier', answer_spec: { format: 'email' } }],
      });
      const [answered, answerMs] = await timedAnswer(() =>
        api.call('PATCH', `/v1/rfis/${rfi.rfiId}/items`, {
          body: { items: [{ item_id: rfi.itemIds[0], answer_value: dots(80_000) }] },
          version: '2026-06-01',
        }),
      );
      const errors = (answered.body as { errors?: Array<{ item_id: string }> }).errors;
      expect(judge(answerMs, 1_500, errors?.[0]?.item_id === rfi.itemIds[0])).toBe(true);
    });
  });

  describe('spoofed file names: refused before anything is sent, naming the field', () => {
    it.each([
      ['right-to-left override', 'invoice\u202efdp.exe'],
      ['zero-width space', 'scan\u200b.pdf'],
      ['byte order mark', '\ufeffid.pdf'],
      ['isolates', '\u2066report\u2069.pdf'],
      ['left-to-right mark', 'a\u200e.pdf'],
      ['Hangul filler', 'a\u3164.pdf'],
    ])('%s', async (_label, fileName) => {
      const user = await client.users.create(individual());
      const rfi = await sandbox.control.seedRfi({
        userId: user.userId,
        items: [{ answer_type: 'document', answer_spec: { mime_types: ['application/pdf'] } }],
      });
      const route = 'POST /v1/rfis/:id/items/:id/documents';
      const before = (await sandbox.control.counters()).requests[route] ?? 0;
      const file = { buffer: sampleFile('application/pdf'), fileName, contentType: 'application/pdf' };
      const error = await client.rfis
        .uploadDocuments(rfi.rfiId, rfi.itemIds[0], [file])
        .catch((e: unknown) => e);
      const sent = ((await sandbox.control.counters()).requests[route] ?? 0) - before;
      expect(error).toBeInstanceOf(PartnerLocalValidationError);
      expect(
        tally.count('spoofed file names', fieldsOf(error)?.join() === 'files[0].fileName' && sent === 0),
      ).toBe(true);
    });
  });

  describe('spoofed file names: a download link naming a path or a spoof is read safely', () => {
    it.each([
      ['a path', `attachment; filename*=UTF-8''..%2F..%2Fetc%2Fcron.d%2Fx.pdf`, 'x.pdf'],
      ['a right-to-left override', `attachment; filename*=UTF-8''invoice%E2%80%AEfdp.exe`, 'invoicefdp.exe'],
      ['a malformed encoding', `attachment; filename*=UTF-8''%E0%A4%A; filename="plain.pdf"`, 'plain.pdf'],
    ])('%s', async (_label, disposition, expected) => {
      const link = await startMisbehavingDownloadServer('complete', 0, {
        'content-disposition': disposition,
      });
      try {
        const download = await client.rfis
          .fetchDocumentLink({ downloadUrl: link.url, expiresAt: null })
          .catch((e: unknown) => e);
        const fileName = (download as { fileName?: unknown }).fileName;
        const out = await readToEnd((download as { stream: Readable }).stream ?? Readable.from([]), 5_000);
        expect({ fileName, error: out.error }).toEqual({ fileName: expected, error: undefined });
        expect(tally.count('spoofed file names', fileName === expected)).toBe(true);
      } finally {
        await link.close();
      }
    });
  });

  describe('endless downloads: the stream fails with PartnerTimeoutError and the link is let go', () => {
    it.each<[DownloadMisbehaviour]>([['stall'], ['trickle-then-stall'], ['endless-trickle']])(
      '%s',
      async (kind) => {
        const link = await startMisbehavingDownloadServer(kind, 100);
        try {
          const download = await client.rfis.fetchDocumentLink(
            { downloadUrl: link.url, expiresAt: null },
            { timeoutMs: 5_000, idleTimeoutMs: 500, bodyTimeoutMs: 2_000 },
          );
          // Generous: the deadlines are 0.5 s and 2 s; without them the read never ends.
          const out = await readToEnd(download.stream, 10_000);
          await new Promise((r) => setTimeout(r, 200));
          const right = tally.count(
            'endless download',
            out.error instanceof PartnerTimeoutError &&
              out.ms < 10_000 &&
              link.clientGoneAfterMs.length === 1,
          );
          expect(out.error).toBeInstanceOf(PartnerTimeoutError);
          expect(right).toBe(true);
        } finally {
          await link.close();
        }
      },
    );
  });
});
