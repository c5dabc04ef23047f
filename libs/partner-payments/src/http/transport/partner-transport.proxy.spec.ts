import axios, { type AxiosInstance } from 'axios';
import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { buildPartnerClientGraph } from '../../client-graph.util';
import { resolvePartnerOptions } from '../../options-resolver.util';
import {
  authOk,
  json,
  pathOf,
  silentLogger,
  startLocalServer,
  type LocalServer,
} from '../local-server.fixture';
import { sendsDirectWithoutLookup } from './axios-config.util';

/**
 * A forward proxy on 127.0.0.1: records the absolute URL of every request it is asked to carry and
 * relays it to the origin, so a call through it still gets the partner's answer.
 */
async function startForwardProxy(): Promise<{ url: string; seen: string[]; close(): Promise<void> }> {
  const seen: string[] = [];
  const server: Server = createServer((req, res) => {
    seen.push(req.url ?? '');
    const upstream = request(req.url ?? '', { method: req.method, headers: req.headers }, (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    });
    upstream.on('error', () => res.destroy());
    req.pipe(upstream);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    seen,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

const PROXY_VARIABLES = ['http_proxy', 'HTTP_PROXY', 'https_proxy', 'HTTPS_PROXY', 'all_proxy', 'ALL_PROXY'];
/**
 * Node's own env-proxy mode (Node 24: NODE_USE_ENV_PROXY=1 or --use-env-proxy) reads the variables
 * once, at process start, and axios then leaves proxying to Node: a variable set by a test later is
 * not seen by either, with or without this module.
 */
const NODE_READS_PROXY_AT_START =
  process.env.NODE_USE_ENV_PROXY === '1' || process.execArgv.includes('--use-env-proxy');

describe('PartnerTransport and HTTP proxies (axios reads no environment per call when none can apply)', () => {
  let partner: LocalServer;
  let proxy: Awaited<ReturnType<typeof startForwardProxy>>;
  const saved: Record<string, string | undefined> = {};
  /** The `proxy` value each request reached axios with, read by a real request interceptor. */
  let proxyConfigs: unknown[];

  beforeEach(async () => {
    for (const name of PROXY_VARIABLES) {
      saved[name] = process.env[name];
      delete process.env[name];
    }
    partner = await startLocalServer((req, res) =>
      pathOf(req) === '/auth' ? authOk(res) : json(res, 200, { ok: true }),
    );
    proxy = await startForwardProxy();
    proxyConfigs = [];
  });
  afterEach(async () => {
    for (const name of PROXY_VARIABLES) {
      if (saved[name] === undefined) delete process.env[name];
      else process.env[name] = saved[name];
    }
    await Promise.all([partner.close(), proxy.close()]);
  });

  function clientOn(instance: AxiosInstance) {
    instance.interceptors.request.use((config) => {
      proxyConfigs.push(config.proxy);
      return config;
    });
    const options = resolvePartnerOptions({
      baseUrl: partner.baseUrl,
      apiKey: 'key-secret-1',
      clientId: 'client-1',
      password: 'pw-secret-1',
      environment: 'sandbox',
      logger: silentLogger,
      rateLimit: false,
    });
    return buildPartnerClientGraph(options, { axios: instance }).http;
  }

  it('with no proxy variable and none configured, tells axios to send directly', async () => {
    const http = clientOn(axios.create());
    const res = await http.request<{ ok: boolean }>({ method: 'GET', path: '/v1/users' });
    expect(res.data).toEqual({ ok: true });
    // The /auth call and the GET: both direct, and axios was told so.
    expect(proxyConfigs).toEqual([false, false]);
    expect(proxy.seen).toEqual([]);
    expect(partner.requests.map((r) => r.url)).toEqual(['/sandbox/auth', '/sandbox/v1/users']);
  });

  it.each(['http_proxy', 'HTTP_PROXY', 'all_proxy'])(
    'with %s set when the client is built, leaves the choice to axios and the call goes through the proxy',
    async (name) => {
      process.env[name] = proxy.url;
      const http = clientOn(axios.create());
      const res = await http.request<{ ok: boolean }>({ method: 'GET', path: '/v1/users' });
      expect(res.data).toEqual({ ok: true });
      expect(proxyConfigs).toEqual([undefined, undefined]);
      if (!NODE_READS_PROXY_AT_START)
        expect(proxy.seen).toEqual([
          `${partner.baseUrl}/sandbox/auth`,
          `${partner.baseUrl}/sandbox/v1/users`,
        ]);
      expect(partner.requests).toHaveLength(2);
    },
  );

  it("keeps a proxy set on the defaults of the axios instance it was given (createPartnerPaymentsClient's deps.axios)", async () => {
    const { hostname, port } = new URL(proxy.url);
    const configured = { protocol: 'http', host: hostname, port: Number(port) };
    const http = clientOn(axios.create({ proxy: configured }));
    await http.request({ method: 'GET', path: '/v1/users' });
    // The interceptor sees the merged config: the instance's proxy, not `false`.
    expect(proxyConfigs).toEqual([configured, configured]);
    expect(proxy.seen).toEqual([`${partner.baseUrl}/sandbox/auth`, `${partner.baseUrl}/sandbox/v1/users`]);
  });

  it('decides from the variables, the defaults and agents built with proxyEnv', () => {
    expect(sendsDirectWithoutLookup(undefined, {})).toBe(true);
    expect(sendsDirectWithoutLookup({}, { NO_PROXY: '*' })).toBe(true);
    expect(sendsDirectWithoutLookup({}, { HTTPS_PROXY: 'http://proxy:3128' })).toBe(false);
    expect(sendsDirectWithoutLookup({}, { https_proxy: '' })).toBe(true);
    expect(sendsDirectWithoutLookup({ proxy: false }, {})).toBe(false);
    expect(sendsDirectWithoutLookup({ httpAgent: { options: { keepAlive: true } } }, {})).toBe(true);
    expect(
      sendsDirectWithoutLookup({ httpsAgent: { options: { proxyEnv: { HTTPS_PROXY: 'x' } } } }, {}),
    ).toBe(false);
  });
});
