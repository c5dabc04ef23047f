/**
 * The client's transport handles (`client.auth`, `client.http`, `client.versionState`) are typed by
 * the public interfaces of @partner-payments/nestjs/transport, not by the internal classes behind
 * them: what an app may call works through them, and the internals (a token step of one attempt,
 * dropping the token after a 401, the environment check) do not compile. `npm run typecheck` checks
 * the `@ts-expect-error` lines: each fails there once the member is reachable again.
 */
import { buildPartnerClientGraph, type PartnerClientGraph } from '../client-graph.util';
import { createTestClient, json, useLocalServer } from '../http/local-server.fixture';
import type { PartnerAuth, PartnerHttp, PartnerVersionState } from '../transport';

describe('PartnerPaymentsClient transport handles', () => {
  const { server, apiCalls, authCalls, route } = useLocalServer();
  let graph: PartnerClientGraph;
  beforeEach(() => {
    const { options } = createTestClient(server().baseUrl, { sendVersionHeader: 'until-pinned' });
    graph = buildPartnerClientGraph(options);
  });

  it('are the client graph’s own objects, typed by the public interfaces', () => {
    const { client } = graph;
    const handles: [PartnerAuth, PartnerHttp, PartnerVersionState] = [
      client.auth,
      client.http,
      client.versionState,
    ];
    expect(handles[0]).toBe(graph.tokens);
    expect(handles[1]).toBe(graph.http);
    expect(handles[2]).toBe(graph.versionState);
  });

  it('auth: getToken, expiresAt and refresh', async () => {
    route((_req, res) => json(res, 200, {}));
    const { auth } = graph.client;
    expect(auth.expiresAt).toBeNull();
    expect(await auth.getToken()).toBe('tok-1');
    expect(auth.expiresAt).toBeGreaterThan(Date.now());
    expect(await auth.getToken()).toBe('tok-1');
    expect(authCalls()).toBe(1);
    await auth.refresh();
    expect(authCalls()).toBe(2);
  });

  it('http.request and versionState: the pin drops X-Api-Version, reset brings it back', async () => {
    route((_req, res) => json(res, 200, { ok: true }));
    const { http, versionState } = graph.client;
    const first = await http.request<{ ok: boolean }>({ method: 'GET', path: '/v1/users' });
    expect(first.data).toEqual({ ok: true });
    expect(versionState.pinnedVersion).toBeNull();
    versionState.markPinned('2026-04-14');
    expect(versionState.pinnedVersion).toBe('2026-04-14');
    await http.request({ method: 'GET', path: '/v1/users' });
    versionState.reset();
    await http.request({ method: 'GET', path: '/v1/users' });
    expect(apiCalls().map((r) => r.headers['x-api-version'])).toEqual([
      '2026-04-14',
      undefined,
      '2026-04-14',
    ]);
  });

  it('do not reach the internals of the classes behind them', () => {
    const { auth, http, versionState } = graph.client;
    const reached = [
      // @ts-expect-error the token step of one attempt is the HTTP client's own
      auth.tokenForAttempt,
      // @ts-expect-error dropping the token after a 401 is the HTTP client's own
      auth.invalidate,
      // @ts-expect-error a token without waiting, for the HTTP client
      auth.current,
      // @ts-expect-error the environment check of sandbox-only operations
      http.environment,
      // @ts-expect-error compare pinnedVersion instead
      versionState.isPinned,
    ];
    // At run time the objects are the classes' instances, so the members are there.
    expect(reached.every((member) => member !== undefined)).toBe(true);
  });
});
