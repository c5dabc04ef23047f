import type { Server } from 'node:http';
import type { HttpServerVariables } from './http-server.rules';

/** The HTTP server's bounds (config/http-server.rules.ts), every default applied. */
export interface HttpServerConfig {
  headersTimeoutMs: number;
  requestTimeoutMs: number;
  keepAliveTimeoutMs: number;
  maxConnections: number;
}

/**
 * Headers arrive in one packet from any real client: 10 s. A whole request, up to the webhook
 * route's 1 MB, in 30 s: the partner itself gives up on a delivery after 30 s (evidence §9
 * [T1 REVISION-DOCS §2.4]), so nothing it sends needs longer. Keep-alive as Node's default.
 */
export const HTTP_SERVER_DEFAULTS = {
  HTTP_HEADERS_TIMEOUT_MS: 10_000,
  HTTP_REQUEST_TIMEOUT_MS: 30_000,
  HTTP_KEEP_ALIVE_TIMEOUT_MS: 5_000,
  HTTP_MAX_CONNECTIONS: 1_000,
} as const;

export function loadHttpServerConfig(
  vars: HttpServerVariables,
  problems: Array<{ variable: string; message: string }>,
): HttpServerConfig {
  const config = {
    headersTimeoutMs: vars.HTTP_HEADERS_TIMEOUT_MS ?? HTTP_SERVER_DEFAULTS.HTTP_HEADERS_TIMEOUT_MS,
    requestTimeoutMs: vars.HTTP_REQUEST_TIMEOUT_MS ?? HTTP_SERVER_DEFAULTS.HTTP_REQUEST_TIMEOUT_MS,
    keepAliveTimeoutMs: vars.HTTP_KEEP_ALIVE_TIMEOUT_MS ?? HTTP_SERVER_DEFAULTS.HTTP_KEEP_ALIVE_TIMEOUT_MS,
    maxConnections: vars.HTTP_MAX_CONNECTIONS ?? HTTP_SERVER_DEFAULTS.HTTP_MAX_CONNECTIONS,
  };
  // A headers timeout longer than the request's would never apply (each is checked alone first).
  const named = new Set(problems.map((p) => p.variable));
  if (
    !named.has('HTTP_HEADERS_TIMEOUT_MS') &&
    !named.has('HTTP_REQUEST_TIMEOUT_MS') &&
    config.headersTimeoutMs > config.requestTimeoutMs
  )
    problems.push({
      variable: 'HTTP_HEADERS_TIMEOUT_MS',
      message: `must not exceed HTTP_REQUEST_TIMEOUT_MS (${config.requestTimeoutMs})`,
    });
  return config;
}

/**
 * Applies the bounds before listen. Node checks the two timeouts on a timer (30 s by default,
 * read when the server starts listening), so a request could outlive its bound by that much: the
 * check runs every second here, a walk over the open connections.
 */
export function applyHttpServerLimits(server: Server, config: HttpServerConfig): void {
  server.headersTimeout = config.headersTimeoutMs;
  server.requestTimeout = config.requestTimeoutMs;
  server.keepAliveTimeout = config.keepAliveTimeoutMs;
  server.maxConnections = config.maxConnections;
  (server as Server & { connectionsCheckingInterval: number }).connectionsCheckingInterval = 1000;
}
