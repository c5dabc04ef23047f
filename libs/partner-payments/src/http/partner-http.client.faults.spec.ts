import type { ServerResponse } from 'node:http';
import axios from 'axios';
import FormData from 'form-data';
import { PartnerTokenManager } from '../auth/token-manager.service';
import { PartnerServerError, PartnerTimeoutError } from '../errors/partner-api.errors';
import { PartnerReferenceDataService } from '../resources/reference-data/reference-data.service';
import { PartnerVirtualAccountsService } from '../resources/virtual-accounts/virtual-accounts.service';
import {
  authOk,
  createTestClient,
  json,
  pathOf,
  useLocalServer,
  type RecordedRequest,
} from './local-server.fixture';
import { PartnerApiVersionState } from './api-version-state.service';
import { PartnerHttpClient } from './partner-http.client';
import { PartnerTransport } from './transport/partner-transport.client';

/**
 * What sits between the client and the partner misbehaving: a gateway answering 2xx with its own
 * text (evidence §8), an answer trickling in, a long rate-limiter queue. Real sockets throughout.
 */
describe('PartnerHttpClient against gateway faults (real local server)', () => {
  const { server, apiCalls, authCalls, route } = useLocalServer();
  const text = (res: ServerResponse, contentType: string, body: string, status = 200): void => {
    res.writeHead(status, { 'content-type': contentType, 'content-length': Buffer.byteLength(body) });
    res.end(body);
  };
  const COUNTRIES = { count: 1, data: [{ alpha3: 'COL', name: 'Colombia', subdivisions: [] }] };

  describe('a 2xx whose body is not JSON (evidence §8: 200 with a Cloudflare 522 page or "Blocked")', () => {
    it('is a typed PartnerServerError saying what came back, never headers or secrets', async () => {
      route((_req, res) => text(res, 'text/plain; charset=utf-8', 'error code: 522'));
      const { http } = createTestClient(server().baseUrl, { maxRetries: 0 });
      const err = await http.request({ method: 'GET', path: '/v1/countries' }).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(PartnerServerError);
      expect(err).toMatchObject({ status: 200, code: 'non_json_response', body: 'error code: 522' });
      const message = (err as Error).message;
      expect(message).toContain('GET /v1/countries: 200');
      expect(message).toContain('text/plain');
      expect(message).toContain('"error code: 522"');
      for (const secret of ['key-secret-1', 'pw-secret-1', 'tok-1', 'content-length'])
        expect(message).not.toContain(secret);
    });

    it('a GET is retried like any gateway failure and succeeds once the partner answers', async () => {
      let n = 0;
      route((_req, res) =>
        ++n === 1 ? text(res, 'text/plain', 'error code: 522') : json(res, 200, COUNTRIES),
      );
      const { http } = createTestClient(server().baseUrl);
      const res = await http.request({ method: 'GET', path: '/v1/countries' });
      expect(res.data).toEqual(COUNTRIES);
      expect(res.meta.attempts).toBe(2);
    });

    it.each([
      ['an HTML page', 'text/html', '<html><body>Blocked</body></html>'],
      ['unparsable text labelled JSON', 'application/json', 'Blocked'],
      ['a bare value from a text page', 'text/plain', '522'],
    ])('%s is refused too', async (_name, contentType, body) => {
      route((_req, res) => text(res, contentType, body));
      const { http } = createTestClient(server().baseUrl, { maxRetries: 0 });
      await expect(http.request({ method: 'GET', path: '/v1/banks' })).rejects.toBeInstanceOf(
        PartnerServerError,
      );
    });

    it('empty bodies (204, an empty 200) and JSON under a text/plain label stay usable', async () => {
      route((req, res) => {
        if (req.method === 'DELETE') return text(res, 'text/plain', '', 204);
        if (pathOf(req) === '/v1/empty') return text(res, 'text/plain', '');
        return text(res, 'text/plain', JSON.stringify({ ok: true }));
      });
      const { http } = createTestClient(server().baseUrl, { maxRetries: 0 });
      await expect(
        http.request({ method: 'DELETE', path: '/v1/rfis/r/items/i/documents/d' }),
      ).resolves.toMatchObject({ data: null, meta: { status: 204 } });
      await expect(http.request({ method: 'GET', path: '/v1/empty' })).resolves.toMatchObject({ data: null });
      await expect(http.request({ method: 'GET', path: '/v1/labelled' })).resolves.toMatchObject({
        data: { ok: true },
      });
    });

    it('countries() fails typed instead of caching an empty list for a day', async () => {
      let blocked = true;
      route((_req, res) =>
        blocked ? text(res, 'text/plain', 'error code: 522') : json(res, 200, COUNTRIES),
      );
      const { http } = createTestClient(server().baseUrl, { maxRetries: 0 });
      const reference = new PartnerReferenceDataService(http, 86_400_000);
      await expect(reference.countries()).rejects.toBeInstanceOf(PartnerServerError);
      blocked = false;
      await expect(reference.countries()).resolves.toMatchObject({ count: 1, data: [{ alpha3: 'COL' }] });
    });

    it('listLiquidationAddresses() fails typed instead of answering "none" (a second address would follow)', async () => {
      route((_req, res) => text(res, 'text/html', '<html>Blocked</html>'));
      const { http } = createTestClient(server().baseUrl, { maxRetries: 0 });
      await expect(
        new PartnerVirtualAccountsService(http).listLiquidationAddresses('va-1'),
      ).rejects.toBeInstanceOf(PartnerServerError);
    });

    it('a keyless write that got one is not re-sent: it may have been applied behind the gateway', async () => {
      route((_req, res) => text(res, 'text/html', '<html>Blocked</html>'));
      const { http } = createTestClient(server().baseUrl, { maxRetries: 3 });
      const write = http.request({
        method: 'POST',
        path: '/v1/virtual-accounts/va-1/liquidation-address',
        body: {},
      });
      await expect(write).rejects.toBeInstanceOf(PartnerServerError);
      expect(apiCalls()).toHaveLength(1);
    });

    it('a 200 text page from POST /auth is the partner unavailable (retried), not refused credentials', async () => {
      let n = 0;
      server().setHandler((req, res) => {
        if (pathOf(req) !== '/auth') return json(res, 200, { ok: true });
        return ++n === 1 ? text(res, 'text/plain', 'error code: 522') : authOk(res, 'tok-after-gateway');
      });
      const { http } = createTestClient(server().baseUrl);
      await expect(http.request({ method: 'GET', path: '/v1/users' })).resolves.toMatchObject({
        data: { ok: true },
      });
      expect(authCalls()).toBe(2);
      expect(apiCalls()[0].headers.authorization).toBe('Bearer tok-after-gateway');
    });
  });

  describe('timeoutMs is a deadline for the whole attempt, not an idle timeout', () => {
    /**
     * Answers a body one byte every `stepMs` (16 steps of 150 ms by default, about 2.4 s in all):
     * never a step without activity.
     */
    const trickleEvery =
      (stepMs: number, steps = 16) =>
      (_req: RecordedRequest, res: ServerResponse): void => {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.write('{"a":"');
        let sent = 0;
        const timer = setInterval(() => {
          if (++sent < steps) res.write('x');
          else {
            clearInterval(timer);
            res.end('"}');
          }
        }, stepMs);
        res.on('close', () => clearInterval(timer));
      };
    const trickle = trickleEvery(150);
    const TIMEOUT_MS = 400;
    // Generous for a loaded 2-core CI machine; the idle timeout let the answer run to ~2.4 s.
    const BOUND_MS = 2 * TIMEOUT_MS + 500;

    it('a trickling answer times out typed within the deadline', async () => {
      route(trickle);
      const { http } = createTestClient(server().baseUrl, { timeoutMs: TIMEOUT_MS, maxRetries: 0 });
      const started = performance.now();
      const err = await http.request({ method: 'GET', path: '/v1/users' }).catch((e: unknown) => e);
      const elapsed = performance.now() - started;
      expect(err).toBeInstanceOf(PartnerTimeoutError);
      expect(err).toMatchObject({ status: null, code: 'etimedout' });
      expect((err as Error).message).toContain(`within ${TIMEOUT_MS} ms`);
      expect(elapsed).toBeLessThan(BOUND_MS);
    });

    it("with axios's fetch adapter (a host may make it the default) the deadline times out typed too", async () => {
      route(() => undefined); // never answers
      const { options } = createTestClient(server().baseUrl, { timeoutMs: TIMEOUT_MS, maxRetries: 0 });
      const transport = new PartnerTransport(axios.create({ adapter: 'fetch' }), options);
      const tokens = new PartnerTokenManager(transport, options);
      const http = new PartnerHttpClient(transport, tokens, new PartnerApiVersionState(), options);
      const err = await http.request({ method: 'GET', path: '/v1/users' }).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(PartnerTimeoutError);
      expect(err).toMatchObject({ status: null, code: 'etimedout' });
    });

    it('an upload keeps the idle timeout: it may take longer than timeoutMs while it makes progress', async () => {
      // A body on a slow link takes as long as the link needs; the answer here arrives in steps of
      // 100 ms for about 2.5 s in all, over twice the 1,000 ms timeoutMs, and the upload succeeds.
      // The gap allowed is wide (900 ms of slack per step): the server shares this test's event
      // loop, so a stall of the process on a loaded CI machine delays its next byte as well
      // (Node 24 in CI once stalled past a 250 ms slack).
      const UPLOAD_TIMEOUT_MS = 1_000;
      route(trickleEvery(100, 25));
      const { http } = createTestClient(server().baseUrl, { timeoutMs: UPLOAD_TIMEOUT_MS, maxRetries: 0 });
      const started = performance.now();
      const res = await http.request<{ a: string }>({
        method: 'POST',
        path: '/v1/rfis/r-1/items/i-1/documents',
        multipart: () => {
          const form = new FormData();
          form.append('files', Buffer.from('%PDF-1.7'), {
            filename: 'a.pdf',
            contentType: 'application/pdf',
          });
          return form;
        },
      });
      // The answer took longer than timeoutMs, so a deadline would have cut it.
      expect(performance.now() - started).toBeGreaterThan(UPLOAD_TIMEOUT_MS);
      expect(res.data).toEqual({ a: 'x'.repeat(24) });
    });

    it('keeps the timeout retry rules: a GET and a keyed write are retried, a keyless write is not', async () => {
      route(trickle);
      const { http } = createTestClient(server().baseUrl, { timeoutMs: TIMEOUT_MS, maxRetries: 1 });
      const calls = (path: string): number => apiCalls().filter((r) => pathOf(r) === path).length;
      await expect(http.request({ method: 'GET', path: '/v1/users' })).rejects.toBeInstanceOf(
        PartnerTimeoutError,
      );
      expect(calls('/v1/users')).toBe(2);
      await expect(http.request({ method: 'POST', path: '/v1/recipients', body: {} })).rejects.toBeInstanceOf(
        PartnerTimeoutError,
      );
      expect(calls('/v1/recipients')).toBe(2);
      await expect(
        http.request({ method: 'POST', path: '/v1/users/u-1/verifications', body: {} }),
      ).rejects.toBeInstanceOf(PartnerTimeoutError);
      expect(calls('/v1/users/u-1/verifications')).toBe(1);
    });
  });

  it('reads the token after the rate-limiter wait: a long queue never sends an expired token (spec 5.7)', async () => {
    // Tokens live 2 s; 20 calls at 8/s queue for about 2.5 s, longer than a token's life.
    const issuedAt = new Map<string, number>();
    let issued = 0;
    let expiredSends = 0;
    server().setHandler((req, res) => {
      if (pathOf(req) === '/auth') {
        const token = `tok-${++issued}`;
        issuedAt.set(token, Date.now());
        return authOk(res, token, 2);
      }
      const token = String(req.headers.authorization).slice('Bearer '.length);
      if (Date.now() - (issuedAt.get(token) ?? 0) > 2000) {
        expiredSends++;
        return json(res, 401, { message: 'The incoming token has expired' });
      }
      return json(res, 200, { ok: true });
    });
    const { http } = createTestClient(server().baseUrl, {
      tokenRefreshSkewSeconds: 1,
      rateLimit: { requestsPerSecond: 8, burst: 1 },
    });
    const results = await Promise.allSettled(
      Array.from({ length: 20 }, () => http.request({ method: 'GET', path: '/v1/users' })),
    );
    expect(results.filter((r) => r.status === 'rejected')).toEqual([]);
    expect(expiredSends).toBe(0);
    expect(issued).toBeGreaterThanOrEqual(2); // the queue outlived the first token
  }, 20_000);

  describe('a streamed 2xx whose body never ends', () => {
    const readAll = async (stream: NodeJS.ReadableStream) => {
      const started = performance.now();
      try {
        for await (const _chunk of stream) void _chunk;
        return { error: undefined, ms: performance.now() - started };
      } catch (error) {
        return { error, ms: performance.now() - started };
      }
    };
    const streamed = async (extra: { bodyTimeoutMs?: number } = {}) => {
      const { http } = createTestClient(server().baseUrl, { maxRetries: 0 });
      const req = { method: 'GET', path: '/v1/file', responseType: 'stream', timeoutMs: 300 } as const;
      return (await http.request<NodeJS.ReadableStream>({ ...req, ...extra })).data;
    };
    let timers: NodeJS.Timeout[] = [];
    afterEach(() => {
      timers.forEach(clearInterval);
      timers = [];
    });

    it('stalling after the head: the body fails with PartnerTimeoutError after timeoutMs without bytes', async () => {
      route((_req, res) => {
        res.writeHead(200, { 'content-type': 'application/pdf' });
        res.write('%PDF-1.7\n');
      });
      const out = await readAll(await streamed());
      expect(out.error).toBeInstanceOf(PartnerTimeoutError);
      expect(out.error).toMatchObject({
        code: 'etimedout',
        message: expect.stringContaining('GET /v1/file'),
      });
      expect(out.ms).toBeLessThan(5_000); // generous: 300 ms; without the guard it never ends
    });

    it('a byte every 50 ms forever: the body deadline ends it', async () => {
      route((_req, res) => {
        res.writeHead(200, { 'content-type': 'application/pdf' });
        timers.push(setInterval(() => res.write('.'), 50));
      });
      const out = await readAll(await streamed({ bodyTimeoutMs: 1_000 }));
      expect((out.error as Error).message).toMatch(/the body did not end within 1000 ms/);
      expect(out.ms).toBeLessThan(6_000);
    });
  });
});
