import type { LoggerService } from '@nestjs/common';
import { resolveWebhookOptions, type PartnerWebhookConfig } from './webhooks/webhook-options.util';
import { DEFAULT_API_VERSION, RFI_API_VERSION } from './partner-payments.constants';
import type {
  PartnerEnvironment,
  PartnerHttpEventListener,
  PartnerPaymentsModuleOptions,
  PartnerRateLimitOptions,
  PartnerRetryOptions,
} from './partner-payments.options';
import { PartnerConfigurationError } from './errors/partner-api.errors';

/** The options every service reads: defaults merged in one place and validated. */
export interface ResolvedPartnerOptions {
  environment: PartnerEnvironment;
  /** The user's baseUrl, without a trailing slash. */
  baseUrl: string;
  /** Where paths are joined: baseUrl, plus '/sandbox' in the sandbox (spec 1). No trailing slash. */
  apiBaseUrl: string;
  apiKey: string;
  clientId: string;
  password: string;
  clientUuid: string | null;
  apiVersion: string;
  apiVersionOverrides: { rfis: string };
  sendVersionHeader: 'always' | 'until-pinned';
  timeoutMs: number;
  maxRetries: number;
  tokenRefreshSkewSeconds: number;
  /** 0: no reference-data cache. */
  referenceDataCacheTtlMs: number;
  rateLimit: PartnerRateLimitOptions | false;
  retry: Required<PartnerRetryOptions>;
  logger: LoggerService;
  onHttpEvent: PartnerHttpEventListener | null;
  onTokenEvent: NonNullable<PartnerPaymentsModuleOptions['onTokenEvent']> | null;
  onRateLimitWait: NonNullable<PartnerPaymentsModuleOptions['onRateLimitWait']> | null;
  onWebhookEvent: NonNullable<PartnerPaymentsModuleOptions['onWebhookEvent']> | null;
  /** options.webhooks with its defaults, validated here with everything else (fails at boot). */
  webhookConfig: PartnerWebhookConfig;
}

export const DEFAULT_RETRY_OPTIONS: Required<PartnerRetryOptions> = {
  initialDelayMs: 500,
  maxDelayMs: 8_000,
  minDelayMs: 100,
  maxRetryAfterMs: 30_000,
};
export const DEFAULT_RATE_LIMIT: PartnerRateLimitOptions = { requestsPerSecond: 20, burst: 50 };
/** Countries and banks rarely change: a day in memory by default. */
export const DEFAULT_REFERENCE_DATA_CACHE_TTL_MS = 86_400_000;

function requireString(value: unknown, field: string): string {
  if (typeof value !== 'string' || value.trim() === '') {
    throw new PartnerConfigurationError(field, 'is required (a non-empty string)');
  }
  return value;
}

function number(value: unknown, field: string, fallback: number, min: number, integer = true): number {
  if (value === undefined || value === null) return fallback;
  if (
    typeof value !== 'number' ||
    !Number.isFinite(value) ||
    value < min ||
    (integer && !Number.isInteger(value))
  ) {
    throw new PartnerConfigurationError(
      field,
      `must be ${integer ? 'an integer' : 'a number'} >= ${min}, got ${String(value)}`,
    );
  }
  return value;
}

const VERSION_RE = /^\d{4}-\d{2}-\d{2}$/;
function version(value: unknown, field: string, fallback: string): string {
  if (value === undefined) return fallback;
  if (typeof value !== 'string' || !VERSION_RE.test(value)) {
    throw new PartnerConfigurationError(
      field,
      `must be a date string like '2026-04-14' (spec 9.1), got ${String(value)}`,
    );
  }
  return value;
}

/**
 * Merges defaults and validates. Throws PartnerConfigurationError naming the field, so a
 * misconfigured app fails at boot instead of on its first payout. Secrets never enter the message.
 */
/** Used when neither options.logger nor a default is given (outside Nest): warnings and errors only. */
const fallbackLogger: LoggerService = {
  log: () => undefined,
  warn: (message: unknown) => console.warn(`[PartnerPayments] ${String(message)}`),
  error: (message: unknown) => console.error(`[PartnerPayments] ${String(message)}`),
};

/**
 * `defaultLogger` is what the module passes (a Nest Logger with context 'PartnerPayments'); this file
 * stays free of runtime framework imports so the core can be used and tested without Nest.
 */
export function resolvePartnerOptions(
  options: PartnerPaymentsModuleOptions,
  defaultLogger?: LoggerService,
): ResolvedPartnerOptions {
  if (typeof options !== 'object' || options === null)
    throw new PartnerConfigurationError('options', 'are required');
  const environment = options.environment ?? 'sandbox';
  if (environment !== 'sandbox' && environment !== 'production') {
    throw new PartnerConfigurationError('environment', `must be 'sandbox' or 'production'`);
  }
  const rawBase = requireString(options.baseUrl, 'baseUrl');
  let parsed: URL;
  try {
    parsed = new URL(rawBase);
  } catch {
    throw new PartnerConfigurationError('baseUrl', 'must be an absolute http(s) URL');
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') {
    throw new PartnerConfigurationError('baseUrl', 'must be an absolute http(s) URL');
  }
  if (parsed.search || parsed.hash)
    throw new PartnerConfigurationError('baseUrl', 'must not carry a query or fragment');
  const baseUrl = rawBase.replace(/\/+$/, '');
  // spec 1: the sandbox is {base_url}/sandbox. Tolerate a baseUrl that already names it.
  const apiBaseUrl =
    environment === 'sandbox' && !/\/sandbox$/.test(baseUrl) ? `${baseUrl}/sandbox` : baseUrl;

  const sendVersionHeader = options.sendVersionHeader ?? 'always';
  if (sendVersionHeader !== 'always' && sendVersionHeader !== 'until-pinned') {
    throw new PartnerConfigurationError('sendVersionHeader', `must be 'always' or 'until-pinned'`);
  }
  let rateLimit: PartnerRateLimitOptions | false = DEFAULT_RATE_LIMIT;
  if (options.rateLimit === false) rateLimit = false;
  else if (options.rateLimit !== undefined) {
    rateLimit = {
      requestsPerSecond: number(
        options.rateLimit.requestsPerSecond,
        'rateLimit.requestsPerSecond',
        20,
        0.001,
        false,
      ),
      burst: number(options.rateLimit.burst, 'rateLimit.burst', 50, 1),
    };
    const budget = options.rateLimit.budget;
    if (budget !== undefined) {
      if (typeof budget?.reserve !== 'function')
        throw new PartnerConfigurationError('rateLimit.budget', 'must have a reserve(limit) method');
      rateLimit.budget = budget;
    }
  }
  const r = options.retry ?? {};
  const retry: Required<PartnerRetryOptions> = {
    initialDelayMs: number(r.initialDelayMs, 'retry.initialDelayMs', DEFAULT_RETRY_OPTIONS.initialDelayMs, 0),
    maxDelayMs: number(r.maxDelayMs, 'retry.maxDelayMs', DEFAULT_RETRY_OPTIONS.maxDelayMs, 0),
    minDelayMs: number(r.minDelayMs, 'retry.minDelayMs', DEFAULT_RETRY_OPTIONS.minDelayMs, 0),
    maxRetryAfterMs: number(
      r.maxRetryAfterMs,
      'retry.maxRetryAfterMs',
      DEFAULT_RETRY_OPTIONS.maxRetryAfterMs,
      0,
    ),
  };
  if (retry.minDelayMs > retry.maxDelayMs) {
    throw new PartnerConfigurationError('retry.minDelayMs', 'must not exceed retry.maxDelayMs');
  }
  if (options.clientUuid !== undefined && typeof options.clientUuid !== 'string') {
    throw new PartnerConfigurationError('clientUuid', 'must be a string');
  }
  for (const hook of ['onHttpEvent', 'onTokenEvent', 'onRateLimitWait', 'onWebhookEvent'] as const) {
    if (options[hook] !== undefined && typeof options[hook] !== 'function') {
      throw new PartnerConfigurationError(hook, 'must be a function');
    }
  }

  const logger = options.logger ?? defaultLogger ?? fallbackLogger;
  // The api key and the /auth password would cross the network in clear text. Not refused: a
  // TLS-terminating proxy on the same host is a legitimate set-up; said loudly instead.
  if (environment === 'production' && parsed.protocol === 'http:' && !isLoopback(parsed.hostname)) {
    logger.warn(
      `Partner baseUrl uses plain http in production (${parsed.host}): credentials and tokens would travel unencrypted. Use https.`,
    );
  }

  return {
    environment,
    baseUrl,
    apiBaseUrl,
    apiKey: requireString(options.apiKey, 'apiKey'),
    clientId: requireString(options.clientId, 'clientId'),
    password: requireString(options.password, 'password'),
    clientUuid: options.clientUuid && options.clientUuid.trim() !== '' ? options.clientUuid : null,
    apiVersion: version(options.apiVersion, 'apiVersion', DEFAULT_API_VERSION),
    apiVersionOverrides: {
      rfis: version(options.apiVersionOverrides?.rfis, 'apiVersionOverrides.rfis', RFI_API_VERSION),
    },
    sendVersionHeader,
    timeoutMs: number(options.timeoutMs, 'timeoutMs', 30_000, 1),
    maxRetries: number(options.maxRetries, 'maxRetries', 2, 0),
    tokenRefreshSkewSeconds: number(options.tokenRefreshSkewSeconds, 'tokenRefreshSkewSeconds', 300, 0),
    referenceDataCacheTtlMs: number(
      options.referenceDataCacheTtlMs,
      'referenceDataCacheTtlMs',
      DEFAULT_REFERENCE_DATA_CACHE_TTL_MS,
      0,
    ),
    rateLimit,
    retry,
    logger,
    onHttpEvent: options.onHttpEvent ?? null,
    onTokenEvent: options.onTokenEvent ?? null,
    onRateLimitWait: options.onRateLimitWait ?? null,
    onWebhookEvent: options.onWebhookEvent ?? null,
    webhookConfig: resolveWebhookOptions(options, logger),
  };
}

function isLoopback(hostname: string): boolean {
  return hostname === 'localhost' || hostname === '[::1]' || /^127\.\d+\.\d+\.\d+$/.test(hostname);
}
