/**
 * The fixed parts of every attempt's axios config, and whether it may skip axios's proxy lookup.
 */
import type { AxiosDefaults } from 'axios';

/** The variables axios (lower case first, then upper) and Node's own env-proxy support read. */
const PROXY_VARIABLES = ['http_proxy', 'https_proxy', 'all_proxy'];

/**
 * Whether a request may be sent with `proxy: false`, i.e. directly, and be what axios would have
 * done anyway. Without it axios looks up the proxy variables in process.env on every request, a
 * cost on the hot path of every call (bench/README.md). Decided when the client is built, so only
 * when nothing could send through a proxy: no proxy variable set (either case), no `proxy` on the
 * axios instance's defaults, and no agent there built with Node's `proxyEnv`. A process that sets
 * HTTP_PROXY after building the client must build it again (docs/nestjs/transport.md, "HTTP proxies").
 */
export function sendsDirectWithoutLookup(
  axiosDefaults: Partial<Pick<AxiosDefaults, 'proxy' | 'httpAgent' | 'httpsAgent'>> | undefined,
  env: NodeJS.ProcessEnv = process.env,
): boolean {
  for (const name of PROXY_VARIABLES) if (env[name] || env[name.toUpperCase()]) return false;
  if (axiosDefaults?.proxy !== undefined) return false;
  const usesProxyEnv = (agent: unknown): boolean =>
    (agent as { options?: { proxyEnv?: unknown } } | undefined)?.options?.proxyEnv != null;
  return !usesProxyEnv(axiosDefaults?.httpAgent) && !usesProxyEnv(axiosDefaults?.httpsAgent);
}

/** Statuses are the client's business: a 4xx/5xx must not throw inside axios. */
export const ACCEPT_EVERY_STATUS = (): boolean => true;
/** timeouts as ETIMEDOUT, not ECONNABORTED; one shared object, not one per call. */
export const TRANSITIONAL = { clarifyTimeoutError: true, silentJSONParsing: true, forcedJSONParsing: true };
/** Node's timers fire at once above this (a 32-bit signed ms count). */
export const MAX_TIMER_MS = 2_147_483_647;
/** An answer larger than this is refused (axios's maxContentLength). */
export const MAX_ANSWER_BYTES = 64 * 1024 * 1024;
