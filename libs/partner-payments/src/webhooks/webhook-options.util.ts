import type { LoggerService } from '@nestjs/common';
import { PartnerConfigurationError } from '../errors/partner-api.errors';
import type { PartnerWebhookObservation } from '../observability/hooks.util';
import type { PartnerInboxStore } from './inbox/inbox.store';
import { checkInboxStore, describeType } from './inbox/inbox-store-check.util';

/*
 * The webhook options, merged with their defaults and validated. Framework-free (no runtime Nest
 * import), so resolvePartnerOptions resolves them with every other option: a bad
 * webhooks.* value fails at boot, naming the field, like a bad baseUrl.
 */

/** Default route of the ready-made controller. */
export const DEFAULT_PARTNER_WEBHOOK_PATH = '/webhooks/partner';
/** Default body limit: 1 MB, larger gets 413. */
export const DEFAULT_PARTNER_WEBHOOK_MAX_BODY_BYTES = 1_048_576;

/** Backpressure defaults: processing runs in flight here, and the longest a delivery waits for room. */
export const DEFAULT_PARTNER_WEBHOOK_BATCHING = {
  maxBacklog: 512,
  maxBacklogWaitMs: 5_000,
};

/** Batching options where 0 is allowed (no wait); the others must be positive. */
const ZERO_ALLOWED: ReadonlySet<string> = new Set(['maxBacklogWaitMs']);
/** How inbox writes are gathered is the store's business: a durable store takes these options. */
const STORE_OPTIONS: ReadonlySet<string> = new Set([
  'maxRecordRows',
  'maxWaitMs',
  'maxProcessRows',
  'processConcurrency',
]);

export type PartnerWebhookBatching = typeof DEFAULT_PARTNER_WEBHOOK_BATCHING;

export interface PartnerWebhookConfig {
  /** Case-sensitive signing secrets; several during a rotation. Empty: every delivery gets 401. */
  secrets: string[];
  /**
   * false when options.webhooks.controller is false: the ready-made route, if the module registered
   * it, answers 404 (options can be async, the route is registered statically).
   */
  controllerEnabled: boolean;
  /** options.webhooks.path: informational, compared at boot with the registered route. */
  path: string;
  maxBodyBytes: number;
  /** true when the host app configured `webhooks` at all. */
  configured: boolean;
  /** options.webhooks.batching (backpressure) with defaults. */
  batching: PartnerWebhookBatching;
  /** options.logger, else the module's logger. */
  logger: LoggerService;
  /** options.onWebhookEvent: each delivery's answer and each processing run (metrics). */
  onEvent: ((event: PartnerWebhookObservation) => void) | null;
  /**
   * options.inboxStore, checked at boot (checkInboxStore); null when none was given: the module
   * then uses the bounded in-memory store (not durable, warned about at boot when webhooks are on).
   */
  inboxStore: PartnerInboxStore | null;
}

export interface WebhookOptionsLike {
  logger?: LoggerService;
  webhooks?: {
    secrets?: unknown;
    controller?: unknown;
    path?: unknown;
    maxBodyBytes?: unknown;
    batching?: unknown;
  };
  /** Checked at run time (checkInboxStore): configs built at run time can hold anything. */
  inboxStore?: unknown;
  onWebhookEvent?: ((event: PartnerWebhookObservation) => void) | null;
}

/** Merges webhook defaults and validates, naming the field on error. Never puts a secret in a message. */
export function resolveWebhookOptions(
  options: WebhookOptionsLike | null | undefined,
  defaultLogger: LoggerService,
): PartnerWebhookConfig {
  const w = options?.webhooks;
  const logger = options?.logger ?? defaultLogger;
  const onEvent = options?.onWebhookEvent ?? null;
  // Checked whether or not `webhooks` is set: the processing service uses the store either way.
  const inboxStore = checkInboxStore(options?.inboxStore);
  if (w === undefined || w === null) {
    return {
      logger,
      inboxStore,
      secrets: [],
      controllerEnabled: true,
      path: DEFAULT_PARTNER_WEBHOOK_PATH,
      maxBodyBytes: DEFAULT_PARTNER_WEBHOOK_MAX_BODY_BYTES,
      configured: false,
      onEvent,
      batching: { ...DEFAULT_PARTNER_WEBHOOK_BATCHING },
    };
  }
  if (!Array.isArray(w.secrets) || w.secrets.some((s) => typeof s !== 'string' || s.length === 0)) {
    throw new PartnerConfigurationError('webhooks.secrets', 'must be an array of non-empty strings');
  }
  const maxBodyBytes = w.maxBodyBytes ?? DEFAULT_PARTNER_WEBHOOK_MAX_BODY_BYTES;
  if (typeof maxBodyBytes !== 'number' || !Number.isInteger(maxBodyBytes) || maxBodyBytes < 1) {
    throw new PartnerConfigurationError('webhooks.maxBodyBytes', 'must be a positive integer');
  }
  if (w.path !== undefined && (typeof w.path !== 'string' || w.path.trim() === '')) {
    throw new PartnerConfigurationError('webhooks.path', 'must be a non-empty string');
  }
  // 'false' from an environment variable is not false: it would keep the route enabled, quietly.
  if (w.controller !== undefined && typeof w.controller !== 'boolean') {
    throw new PartnerConfigurationError(
      'webhooks.controller',
      `must be true or false (got ${describeType(w.controller)}` +
        (typeof w.controller === 'string' ? `: convert it, e.g. process.env.X !== 'false')` : ')'),
    );
  }
  return {
    secrets: [...(w.secrets as string[])],
    controllerEnabled: w.controller !== false,
    path: normalisePath(typeof w.path === 'string' ? w.path : DEFAULT_PARTNER_WEBHOOK_PATH),
    maxBodyBytes,
    configured: true,
    logger,
    onEvent,
    inboxStore,
    batching: resolveBatching(w.batching),
  };
}

function resolveBatching(value: unknown): PartnerWebhookBatching {
  if (value !== undefined && (typeof value !== 'object' || value === null || Array.isArray(value))) {
    throw new PartnerConfigurationError('webhooks.batching', 'must be an object');
  }
  const given = (value ?? {}) as Record<string, unknown>;
  const out = { ...DEFAULT_PARTNER_WEBHOOK_BATCHING };
  const storeOption = Object.keys(given).find((key) => STORE_OPTIONS.has(key));
  if (storeOption) {
    throw new PartnerConfigurationError(
      `webhooks.batching.${storeOption}`,
      `is an option of the inbox store, not of the module: @partner-payments/typeorm takes it as inbox.${storeOption}`,
    );
  }
  // A misspelt key (maxBacklogg) would otherwise leave its default in force without a word.
  const unknownKey = Object.keys(given).find((key) => !Object.hasOwn(out, key));
  if (unknownKey) {
    throw new PartnerConfigurationError(
      `webhooks.batching.${unknownKey}`,
      `is not an option: the options are ${Object.keys(out).join(', ')}`,
    );
  }
  for (const key of Object.keys(out) as Array<keyof PartnerWebhookBatching>) {
    const v = given[key];
    if (v === undefined) continue;
    const min = ZERO_ALLOWED.has(key) ? 0 : 1;
    if (typeof v !== 'number' || !Number.isInteger(v) || v < min) {
      throw new PartnerConfigurationError(
        `webhooks.batching.${key}`,
        min === 0 ? 'must be a non-negative integer' : 'must be a positive integer',
      );
    }
    out[key] = v;
  }
  return out;
}

export function normalisePath(path: string): string {
  const trimmed = path.trim().replace(/\/+$/, '');
  return trimmed.startsWith('/') ? trimmed || '/' : `/${trimmed}`;
}
