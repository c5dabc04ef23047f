import type { Provider, Type } from '@nestjs/common';
import { PARTNER_INBOX_STORE, PARTNER_WEBHOOK_CONFIG } from '../partner-payments.constants';
import { PartnerInMemoryInboxStore } from './inbox/inbox-memory.store';
import {
  createPartnerWebhookController,
  PartnerWebhookRouteEnabledGuard,
} from './partner-webhook.controller';
import { PartnerWebhookGuard } from './partner-webhook.guard';
import { PartnerWebhookIngestService } from './partner-webhook-ingest.service';
import { PartnerWebhookProcessingService } from './partner-webhook-processing.service';
import { PartnerWebhookBootCheck } from './webhook-boot-check.service';
import {
  PARTNER_WEBHOOK_OPTION_DEPS,
  partnerWebhookConfigProvider,
  pickWebhookOptions,
} from './webhook.config';
import { PartnerWebhookDispatcher } from './events/webhook-dispatcher.service';

/**
 * Wiring point between PartnerPaymentsModule and the webhook pipeline (issue 4).
 * The module spreads these providers into its own, exports `partnerWebhookExports`, and registers
 * the class returned by createPartnerWebhookController(path) unless the host app opted out.
 * Needs EventEmitterModule.forRoot() in the host app (EventEmitter2 is injected optionally).
 */
const inboxStoreProvider: Provider = {
  provide: PARTNER_INBOX_STORE,
  // options.inboxStore when given, else the bounded in-memory store (not durable; see README).
  useFactory: (resolved: unknown, raw: unknown) =>
    pickWebhookOptions(resolved, raw).inboxStore ?? new PartnerInMemoryInboxStore(),
  inject: PARTNER_WEBHOOK_OPTION_DEPS,
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
