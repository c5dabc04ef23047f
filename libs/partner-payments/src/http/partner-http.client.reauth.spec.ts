import { PartnerAuthenticationError } from '../errors/partner-api.errors';
import { authOk, createTestClient, json, pathOf, useLocalServer } from './local-server.fixture';

/** spec 5.7: a 401 is answered with one re-authentication and one re-send, never a loop. */
describe('PartnerHttpClient on a 401, over a real local server', () => {
  const { server, apiCalls, authCalls, route } = useLocalServer();

  it('on a 401 re-authenticates and re-sends once, with the new token', async () => {
    let auth = 0;
    let calls = 0;
    server().setHandler((req, res) => {
      if (pathOf(req) === '/auth') return authOk(res, `tok-${++auth}`);
      if (++calls === 1) return json(res, 401, { code: 'unauthorized', message: 'expired' });
      return json(res, 200, { ok: 1 });
    });
    const { http } = createTestClient(server().baseUrl, { maxRetries: 0 });
    const res = await http.request({ method: 'POST', path: '/v1/users', body: {} });
    expect(res.data).toEqual({ ok: 1 });
    expect(apiCalls().map((r) => r.headers.authorization)).toEqual(['Bearer tok-1', 'Bearer tok-2']);
    // the re-send after a 401 reuses the same Idempotency-Key
    const keys = apiCalls().map((r) => r.headers['idempotency-key']);
    expect(keys[0]).toBe(keys[1]);
  });

  it('a second 401 is thrown, never looped', async () => {
    route((_req, res) => json(res, 401, { code: 'invalid_request', message: 'no' }));
    const { http } = createTestClient(server().baseUrl);
    const err = await http
      .request({ method: 'GET', path: '/v1/rfis/r1', area: 'rfis' })
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(PartnerAuthenticationError);
    expect((err as PartnerAuthenticationError).code).toBe('invalid_request');
    expect(apiCalls()).toHaveLength(2);
    expect(authCalls()).toBe(2);
  });

  it('many concurrent 401s for one expired token share a single re-auth', async () => {
    let auth = 0;
    server().setHandler((req, res) => {
      if (pathOf(req) === '/auth') return setTimeout(() => authOk(res, `tok-${++auth}`), 20);
      return req.headers.authorization === 'Bearer tok-1'
        ? json(res, 401, { code: 'unauthorized' })
        : json(res, 200, {});
    });
    const { http, tokens } = createTestClient(server().baseUrl);
    await tokens.getToken();
    await Promise.all(Array.from({ length: 100 }, () => http.request({ method: 'GET', path: '/v1/users' })));
    expect(authCalls()).toBe(2);
  });
});
