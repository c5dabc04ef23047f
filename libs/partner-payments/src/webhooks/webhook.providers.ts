import type { Provider, Type } from '@nestjs/common';
import type { ResolvedPartnerOptions } from '../options-resolver.util';
import {
  PARTNER_INBOX_STORE,
  PARTNER_RESOLVED_OPTIONS,
  PARTNER_WEBHOOK_CONFIG,
} from '../partner-payments.constants';
import { PartnerInMemoryInboxStore } from './inbox/inbox-memory.store';
import {
  createPartnerWebhookController,
  PartnerWebhookRouteEnabledGuard,
} from './partner-webhook.controller';
import { PartnerWebhookGuard } from './partner-webhook.guard';
import { PartnerWebhookIngestService } from './partner-webhook-ingest.service';
import { PartnerWebhookProcessingService } from './partner-webhook-processing.service';
import { PartnerWebhookBootCheck } from './webhook-boot-check.service';
import type { PartnerWebhookConfig } from './webhook-options.util';
import { PartnerWebhookDispatcher } from './events/webhook-dispatcher.service';

/**
 * Wiring point between PartnerPaymentsModule and the webhook pipeline.
 * The module spreads these providers into its own, exports `partnerWebhookExports`, and registers
 * the class returned by createPartnerWebhookController(path) unless the host app opted out.
 * Needs EventEmitterModule.forRoot() in the host app (EventEmitter2 is injected optionally).
 */
const partnerWebhookConfigProvider: Provider = {
  provide: PARTNER_WEBHOOK_CONFIG,
  // Resolved with every other option (resolvePartnerOptions), so a bad webhooks.* fails the boot.
  useFactory: (resolved: ResolvedPartnerOptions) => resolved.webhookConfig,
  inject: [PARTNER_RESOLVED_OPTIONS],
};

const inboxStoreProvider: Provider = {
  provide: PARTNER_INBOX_STORE,
  // options.inboxStore when given (checked at boot with the other webhook options, so a store the
  // pipeline cannot call fails the boot instead of every delivery), else the bounded in-memory
  // store (not durable; see docs/nestjs/inbox.md), logging through the module's logger.
  useFactory: (config: PartnerWebhookConfig) =>
    config.inboxStore ?? new PartnerInMemoryInboxStore({ logger: config.logger }),
  inject: [PARTNER_WEBHOOK_CONFIG],
};

export const partnerWebhookProviders: Provider[] = [
  partnerWebhookConfigProvider,
  inboxStoreProvider,
  PartnerWebhookDispatcher,
  PartnerWebhookIngestService,
  PartnerWebhookProcessingService,
  PartnerWebhookGuard,
  PartnerWebhookRouteEnabledGuard,
  PartnerWebhookBootCheck,
];

export const partnerWebhookExports: Array<string | symbol | Type> = [
  PARTNER_WEBHOOK_CONFIG,
  PARTNER_INBOX_STORE,
  PartnerWebhookDispatcher,
  PartnerWebhookIngestService,
  PartnerWebhookProcessingService,
  PartnerWebhookGuard,
];

export { createPartnerWebhookController };
