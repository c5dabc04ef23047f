import axios from 'axios';
import type { LoggerService } from '@nestjs/common';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { PartnerTokenManager } from '../auth/token-manager.service';
import { resolvePartnerOptions, type ResolvedPartnerOptions } from '../options-resolver.util';
import type { PartnerPaymentsModuleOptions } from '../partner-payments.options';
import { PartnerApiVersionState } from './api-version-state.service';
import { PartnerHttpClient } from './partner-http.client';
import { PartnerTransport } from './transport/partner-transport.client';
import type { Clock } from './rate-limiter.policy';

/**
 * Test-only: a real HTTP server on 127.0.0.1 (port 0) and a client wired without Nest DI.
 * Not exported from the package.
 */
export interface RecordedRequest {
  method: string;
  url: string;
  headers: IncomingMessage['headers'];
  body: string;
}

export type Handler = (req: RecordedRequest, res: ServerResponse, raw: IncomingMessage) => unknown;

export interface LocalServer {
  baseUrl: string;
  requests: RecordedRequest[];
  setHandler(handler: Handler): void;
  close(): Promise<void>;
}

export async function startLocalServer(handler?: Handler): Promise<LocalServer> {
  let current: Handler = handler ?? ((_req, res) => json(res, 404, { message: 'no handler' }));
  const requests: RecordedRequest[] = [];
  const server: Server = createServer((raw, res) => {
    const chunks: Buffer[] = [];
    raw.on('data', (c: Buffer) => chunks.push(c));
    raw.on('end', () => {
      const rec: RecordedRequest = {
        method: raw.method ?? '',
        url: raw.url ?? '',
        headers: raw.headers,
        body: Buffer.concat(chunks).toString('utf8'),
      };
      requests.push(rec);
      Promise.resolve(current(rec, res, raw)).catch((e: unknown) => {
        if (!res.headersSent) json(res, 599, { message: String(e) });
      });
    });
  });
  server.keepAliveTimeout = 1;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    requests,
    setHandler: (h) => {
      current = h;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

export function json(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  const text = JSON.stringify(body);
  res.writeHead(status, {
    'content-type': 'application/json',
    'content-length': Buffer.byteLength(text),
    ...headers,
  });
  res.end(text);
}

export function authOk(res: ServerResponse, token = 'tok-1', expiresIn = 3600): void {
  json(res, 200, {
    message: 'ok',
    data: { access_token: token, expires_in: expiresIn, token_type: 'Bearer' },
  });
}

/** A path as the handler sees it, without the '/sandbox' prefix. */
export function pathOf(req: RecordedRequest): string {
  return req.url.split('?')[0].replace(/^\/sandbox/, '');
}

/**
 * A local server per test (started in beforeEach, closed in afterEach) with the helpers the client
 * suites share: the API calls and the /auth calls it recorded, and `route`, which serves /auth
 * (with `token`) and hands every other request to `api`.
 */
export function useLocalServer() {
  let current: LocalServer | undefined;
  beforeEach(async () => {
    current = await startLocalServer();
  });
  afterEach(() => current?.close());
  const server = (): LocalServer => {
    if (!current) throw new Error('useLocalServer: the server starts in beforeEach');
    return current;
  };
  return {
    server,
    apiCalls: (): RecordedRequest[] => server().requests.filter((r) => pathOf(r) !== '/auth'),
    authCalls: (): number => server().requests.filter((r) => pathOf(r) === '/auth').length,
    route: (api: Handler, token = 'tok-1'): void =>
      server().setHandler((req, res, raw) =>
        pathOf(req) === '/auth' ? authOk(res, token) : api(req, res, raw),
      ),
  };
}

export const silentLogger: LoggerService = {
  log: () => undefined,
  error: () => undefined,
  warn: () => undefined,
  debug: () => undefined,
};

export class FakeClock implements Clock {
  constructor(public t = 1_000_000) {}
  now(): number {
    return this.t;
  }
  sleep(ms: number): Promise<void> {
    this.t += ms;
    return Promise.resolve();
  }
}

export interface TestClient {
  options: ResolvedPartnerOptions;
  transport: PartnerTransport;
  tokens: PartnerTokenManager;
  versionState: PartnerApiVersionState;
  http: PartnerHttpClient;
}

export function createTestClient(
  baseUrl: string,
  overrides: Partial<PartnerPaymentsModuleOptions> = {},
  clock?: Clock,
): TestClient {
  const options = resolvePartnerOptions({
    baseUrl,
    apiKey: 'key-secret-1',
    clientId: 'client-1',
    password: 'pw-secret-1',
    environment: 'sandbox',
    logger: silentLogger,
    retry: { initialDelayMs: 1, maxDelayMs: 5, minDelayMs: 0, maxRetryAfterMs: 50 },
    rateLimit: false,
    ...overrides,
  });
  const transport = new PartnerTransport(axios.create(), options);
  const tokens = new PartnerTokenManager(transport, options, clock);
  const versionState = new PartnerApiVersionState();
  const http = new PartnerHttpClient(transport, tokens, versionState, options);
  return { options, transport, tokens, versionState, http };
}
