import { Logger, type Provider } from '@nestjs/common';
import {
  PARTNER_PAYMENTS_OPTIONS,
  PARTNER_RESOLVED_OPTIONS,
  PARTNER_WEBHOOK_CONFIG,
} from '../partner-payments.constants';
import type { ResolvedPartnerOptions } from '../options-resolver.util';
import {
  resolveWebhookOptions,
  type PartnerWebhookConfig,
  type WebhookOptionsLike,
} from './webhook-options.util';

export {
  DEFAULT_PARTNER_WEBHOOK_BATCHING,
  DEFAULT_PARTNER_WEBHOOK_MAX_BODY_BYTES,
  DEFAULT_PARTNER_WEBHOOK_PATH,
  normalisePath,
  type PartnerWebhookBatching,
  type PartnerWebhookConfig,
} from './webhook-options.util';

/** The webhook options resolved outside the module (tests, the webhook pipeline on its own). */
export function resolvePartnerWebhookConfig(
  options: WebhookOptionsLike | null | undefined,
): PartnerWebhookConfig {
  return resolveWebhookOptions(options, new Logger('PartnerWebhooks'));
}

/**
 * Reads the resolved options when the module provides them, else the raw options, so the webhook
 * pipeline works whichever one carries `webhooks` / `inboxStore`.
 */
export function pickWebhookOptions(resolved: unknown, raw: unknown): WebhookOptionsLike {
  const r = isObject(resolved) ? (resolved as WebhookOptionsLike) : undefined;
  const o = isObject(raw) ? (raw as WebhookOptionsLike) : undefined;
  return {
    logger: r?.logger ?? o?.logger,
    webhooks: r?.webhooks ?? o?.webhooks,
    inboxStore: r?.inboxStore ?? o?.inboxStore,
    onWebhookEvent: r?.onWebhookEvent ?? o?.onWebhookEvent,
  };
}

const OPTIONAL_OPTIONS = [
  { token: PARTNER_RESOLVED_OPTIONS, optional: true },
  { token: PARTNER_PAYMENTS_OPTIONS, optional: true },
];

/**
 * The module's resolved options carry the webhook configuration (resolvePartnerOptions resolves it
 * with the rest); without them (the webhook pipeline registered on its own) the raw options are read.
 */
export const partnerWebhookConfigProvider: Provider = {
  provide: PARTNER_WEBHOOK_CONFIG,
  useFactory: (resolved: unknown, raw: unknown) =>
    isObject(resolved) && isObject((resolved as Partial<ResolvedPartnerOptions>).webhookConfig)
      ? (resolved as ResolvedPartnerOptions).webhookConfig
      : resolvePartnerWebhookConfig(pickWebhookOptions(resolved, raw)),
  inject: OPTIONAL_OPTIONS,
};

export { OPTIONAL_OPTIONS as PARTNER_WEBHOOK_OPTION_DEPS };

function isObject(value: unknown): value is object {
  return typeof value === 'object' && value !== null;
}
