import type { PartnerInboxStore } from './inbox/inbox.store';
import { PartnerWebhookIngestService } from './partner-webhook-ingest.service';
import { PartnerWebhookProcessingService } from './partner-webhook-processing.service';
import type { PartnerWebhookConfig } from './webhook.config';
import type { PartnerWebhookDispatcher } from './events/webhook-dispatcher.service';

/** Both halves of the webhook pipeline, as a test builds them without Nest. */
export interface PartnerWebhookServices {
  ingest: PartnerWebhookIngestService;
  processing: PartnerWebhookProcessingService;
}

/** Wires the ingest service to the processing service the way the module's providers do. */
export function webhookServices(
  config: PartnerWebhookConfig,
  inbox: PartnerInboxStore,
  dispatcher: PartnerWebhookDispatcher,
): PartnerWebhookServices {
  const processing = new PartnerWebhookProcessingService(config, inbox, dispatcher);
  return { ingest: new PartnerWebhookIngestService(config, inbox, processing), processing };
}
