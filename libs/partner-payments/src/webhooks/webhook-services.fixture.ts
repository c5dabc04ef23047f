import type { LoggerService } from '@nestjs/common';
import { EventEmitter2 } from '@nestjs/event-emitter';
import { Test } from '@nestjs/testing';
import type { PartnerWebhookObservation } from '../observability/hooks.util';
import { PartnerPaymentsModule } from '../partner-payments.module';
import type { PartnerWebhookBatchingOptions } from '../partner-payments.options';
import { PARTNER_INBOX_STORE, PARTNER_WEBHOOK_CONFIG } from '../partner-payments.constants';
import type { PartnerInboxStore } from './inbox/inbox.store';
import { PartnerWebhookIngestService } from './partner-webhook-ingest.service';
import { PartnerWebhookProcessingService } from './partner-webhook-processing.service';
import type { PartnerWebhookConfig } from './webhook-options.util';

/** What a spec gives the module: the webhook options, and the emitter its handlers listen on. */
export interface WebhookServicesOptions {
  logger?: LoggerService;
  secrets?: string[];
  maxBodyBytes?: number;
  batching?: PartnerWebhookBatchingOptions;
  inboxStore?: PartnerInboxStore;
  onWebhookEvent?: (event: PartnerWebhookObservation) => void;
  /** The app's EventEmitter2; null: none (no EventEmitterModule). Default a new one. */
  emitter?: EventEmitter2 | null;
}

/** Both halves of the webhook pipeline as PartnerPaymentsModule provides them. */
export interface PartnerWebhookServices {
  ingest: PartnerWebhookIngestService;
  processing: PartnerWebhookProcessingService;
  inbox: PartnerInboxStore;
  config: PartnerWebhookConfig;
  emitter: EventEmitter2 | undefined;
  /** Closes the module as app.close() does (shutdown hooks included). */
  close(): Promise<void>;
}

const quiet: LoggerService = { log: () => undefined, warn: () => undefined, error: () => undefined };

/** Compiles PartnerPaymentsModule.forRoot with these webhook options (no route, no network). */
export async function webhookServices(options: WebhookServicesOptions = {}): Promise<PartnerWebhookServices> {
  const emitter = options.emitter === null ? undefined : (options.emitter ?? new EventEmitter2());
  // The emitter as EventEmitterModule.forRoot() would provide it: global, found by the dispatcher.
  const emitterModule = emitter
    ? [
        {
          module: class SpecEmitterModule {},
          global: true,
          providers: [{ provide: EventEmitter2, useValue: emitter }],
          exports: [EventEmitter2],
        },
      ]
    : [];
  const moduleRef = await Test.createTestingModule({
    imports: [
      ...emitterModule,
      PartnerPaymentsModule.forRoot({
        baseUrl: 'https://api.partner.example',
        apiKey: 'k',
        clientId: 'c',
        password: 'p',
        logger: options.logger ?? quiet,
        webhooks: {
          secrets: options.secrets ?? ['whsec_unit'],
          maxBodyBytes: options.maxBodyBytes,
          batching: options.batching,
        },
        inboxStore: options.inboxStore,
        onWebhookEvent: options.onWebhookEvent,
        webhookController: false,
      }),
    ],
  }).compile();
  return {
    ingest: moduleRef.get(PartnerWebhookIngestService),
    processing: moduleRef.get(PartnerWebhookProcessingService),
    inbox: moduleRef.get<PartnerInboxStore>(PARTNER_INBOX_STORE),
    config: moduleRef.get<PartnerWebhookConfig>(PARTNER_WEBHOOK_CONFIG),
    emitter,
    close: () => moduleRef.close(),
  };
}
