import { PartnerAuthenticationError, PartnerServerError } from '../errors/partner-api.errors';
import type { PartnerHttpEvent } from '../http/http.types';
import {
  authOk,
  createTestClient,
  json,
  pathOf,
  startLocalServer,
  type LocalServer,
} from '../http/local-server.fixture';

/**
 * The token is a step of each attempt of a call's one retry loop: a failed POST /auth is one of
 * the call's failed attempts, and the call's retry budget covers token and request together.
 */
describe('the token step inside the request loop (real local server)', () => {
  let server: LocalServer;
  beforeEach(async () => {
    server = await startLocalServer();
  });
  afterEach(() => server.close());

  const count = (path: string): number => server.requests.filter((r) => pathOf(r) === path).length;

  it("a transient /auth failure is covered by the call's own retries (the per-call maxRetries)", async () => {
    let auth = 0;
    server.setHandler((req, res) => {
      if (pathOf(req) !== '/auth') return json(res, 200, { ok: true });
      return ++auth === 1 ? json(res, 503, { message: 'busy' }) : authOk(res, 'tok-1');
    });
    // No retries by default: only the call's own budget can carry it past the 503.
    const { http } = createTestClient(server.baseUrl, { maxRetries: 0 });
    const res = await http.request({ method: 'GET', path: '/v1/users', maxRetries: 1 });
    expect(res.meta.status).toBe(200);
    // The failed token step was the call's first attempt.
    expect(res.meta.attempts).toBe(2);
    expect(count('/auth')).toBe(2);
    expect(count('/v1/users')).toBe(1);
  });

  it('a call makes at most 1 + maxRetries failed attempts across token and request', async () => {
    let auth = 0;
    server.setHandler((req, res) => {
      if (pathOf(req) === '/auth')
        return ++auth === 1 ? json(res, 503, { message: 'busy' }) : authOk(res, 'tok-1');
      return json(res, 503, { message: 'down' });
    });
    const events: PartnerHttpEvent[] = [];
    const { http } = createTestClient(server.baseUrl, {
      maxRetries: 2,
      onHttpEvent: (e) => events.push(e),
    });
    const err = await http.request({ method: 'GET', path: '/v1/users' }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(PartnerServerError);
    expect(err).toMatchObject({ status: 503 });
    const failed = server.requests.length - 1; // every request but the one POST /auth that succeeded
    expect(failed).toBe(3);
    expect(count('/auth')).toBe(2);
    expect(count('/v1/users')).toBe(2);
    const last = events.filter((e) => e.type === 'response').pop();
    expect(last).toMatchObject({ path: '/v1/users', status: 503, willRetry: false });
  });

  it('a refused credential pair ends the call at once, whatever its retry budget', async () => {
    server.setHandler((req, res) =>
      pathOf(req) === '/auth'
        ? json(res, 401, { code: 'unauthorized', message: 'bad credentials' })
        : json(res, 200, { ok: true }),
    );
    const { http } = createTestClient(server.baseUrl, { maxRetries: 3 });
    const err = await http.request({ method: 'GET', path: '/v1/users' }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(PartnerAuthenticationError);
    expect(server.requests).toHaveLength(1);
  });

  it('a keyless write whose token step failed is still sent once: nothing of it left before', async () => {
    let auth = 0;
    server.setHandler((req, res) => {
      if (pathOf(req) === '/auth')
        return ++auth === 1 ? json(res, 502, { message: 'bad gateway' }) : authOk(res, 'tok-1');
      return json(res, 201, { id: 'x' });
    });
    const { http } = createTestClient(server.baseUrl, { maxRetries: 1 });
    const res = await http.request({
      method: 'POST',
      path: '/v1/things',
      body: { a: 1 },
      bodyReplayable: false,
    });
    expect(res.meta).toMatchObject({ status: 201, attempts: 2 });
    expect(count('/v1/things')).toBe(1);
  });

  it('concurrent calls on a cold cache share each /auth attempt, also across a transient failure', async () => {
    let auth = 0;
    server.setHandler((req, res) => {
      if (pathOf(req) !== '/auth') return json(res, 200, { ok: true });
      auth++;
      setTimeout(() => (auth === 1 ? json(res, 503, { message: 'busy' }) : authOk(res, 'tok-1')), 30);
      return undefined;
    });
    const { http } = createTestClient(server.baseUrl, { maxRetries: 2 });
    const calls = await Promise.all(
      Array.from({ length: 200 }, () => http.request({ method: 'GET', path: '/v1/users' })),
    );
    expect(calls.every((c) => c.meta.status === 200)).toBe(true);
    expect(count('/auth')).toBe(1 + 1);
  });
});
