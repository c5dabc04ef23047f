/**
 * A host app for the webhook e2e suites: PartnerPaymentsModule + EventEmitterModule and one typed
 * handler per emitted event name, recording every call. Listens on a real port.
 */
import { Injectable, type INestApplication, type LoggerService, Module, type Type } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { EventEmitterModule } from '@nestjs/event-emitter';
import {
  OnPartnerEvent,
  PartnerDerivedEvent,
  PartnerEvent,
  PartnerPaymentsModule,
  type PartnerEventOf,
  type PartnerPaymentsModuleOptions,
  type PartnerPayoutStatusEvent,
} from '@partner-payments/nestjs';
import type { PartnerInboxStore } from '@partner-payments/nestjs/inbox';
import {
  PartnerWebhookIngestService,
  PartnerWebhookProcessingService,
  type PartnerUnknownEvent,
} from '@partner-payments/nestjs/webhooks';

export interface RecordedCall {
  handler: string;
  event: unknown;
}

export class CallLog {
  readonly calls: RecordedCall[] = [];
  count(handler: string): number {
    return this.calls.filter((c) => c.handler === handler).length;
  }
}

@Injectable()
export class RecordingHandlers {
  readonly log = new CallLog();
  private push(handler: string, event: unknown): void {
    this.log.calls.push({ handler, event });
  }
  @OnPartnerEvent(PartnerEvent.UserCreated) userCreated(e: PartnerEventOf<'user.created'>) {
    this.push(e.name, e);
  }
  @OnPartnerEvent(PartnerEvent.UserUpdated) userUpdated(e: PartnerEventOf<'user.updated'>) {
    this.push(e.name, e);
  }
  @OnPartnerEvent(PartnerEvent.UserStatusChanged) userStatus(e: PartnerEventOf<'user.status_changed'>) {
    this.push(e.name, e);
  }
  @OnPartnerEvent(PartnerEvent.UserVerificationAccepted) verified(
    e: PartnerEventOf<'user.verification.accepted'>,
  ) {
    this.push(e.name, e);
  }
  @OnPartnerEvent(PartnerEvent.UserVerificationFailed) rejected(
    e: PartnerEventOf<'user.verification.failed'>,
  ) {
    this.push(e.name, e);
  }
  @OnPartnerEvent(PartnerEvent.UserLivenessCompleted) liveness(e: PartnerEventOf<'user.liveness_completed'>) {
    this.push(e.name, e);
  }
  @OnPartnerEvent(PartnerEvent.VirtualAccountCreated) va(e: PartnerEventOf<'virtual_account.created'>) {
    this.push(e.name, e);
  }
  @OnPartnerEvent(PartnerEvent.VirtualAccountDepositFundsReceived)
  deposit(e: PartnerEventOf<'virtual_account.deposit_funds_received'>) {
    this.push(e.name, e);
  }
  @OnPartnerEvent(PartnerEvent.VirtualAccountMicrodepositFundsReceived)
  microdeposit(e: PartnerEventOf<'virtual_account.microdeposit_funds_received'>) {
    this.push(e.name, e);
  }
  @OnPartnerEvent(PartnerEvent.PayoutCreated) payoutCreated(e: PartnerEventOf<'payout.created'>) {
    this.push(e.name, e);
  }
  @OnPartnerEvent(PartnerEvent.PayoutPending) payoutPending(e: PartnerEventOf<'payout.pending'>) {
    this.push(e.name, e);
  }
  @OnPartnerEvent(PartnerEvent.PayoutProcessing) payoutProcessing(e: PartnerEventOf<'payout.processing'>) {
    this.push(e.name, e);
  }
  @OnPartnerEvent(PartnerEvent.PayoutStatusChanged) payoutStatusChanged(
    e: PartnerEventOf<'payout.status_changed'>,
  ) {
    this.push(e.name, e);
  }
  @OnPartnerEvent(PartnerEvent.PayoutCompleted) payoutCompleted(e: PartnerEventOf<'payout.completed'>) {
    this.push(e.name, e);
  }
  @OnPartnerEvent(PartnerEvent.PayoutFailed) payoutFailed(e: PartnerEventOf<'payout.failed'>) {
    this.push(e.name, e);
  }
  @OnPartnerEvent(PartnerEvent.PayoutReturned) payoutReturned(e: PartnerEventOf<'payout.returned'>) {
    this.push(e.name, e);
  }
  @OnPartnerEvent(PartnerDerivedEvent.PayoutStatus) payoutStatus(e: PartnerPayoutStatusEvent) {
    this.push(PartnerDerivedEvent.PayoutStatus, e);
  }
  @OnPartnerEvent(PartnerDerivedEvent.Unknown) unknown(e: PartnerUnknownEvent) {
    this.push(PartnerDerivedEvent.Unknown, e);
  }
}

export interface WebhookTestApp {
  app: INestApplication;
  url: string;
  handlers: RecordingHandlers;
  service: { ingest: PartnerWebhookIngestService; processing: PartnerWebhookProcessingService };
  logs: string[];
  close(): Promise<void>;
}

export interface WebhookTestAppOptions {
  secrets?: string[];
  rawBody?: boolean;
  maxBodyBytes?: number;
  controllerPath?: string;
  /** Host-app controllers; with them the ready-made route is left out (webhookController: false). */
  controllers?: Array<Type<unknown>>;
  baseUrl?: string;
  credentials?: Pick<PartnerPaymentsModuleOptions, 'apiKey' | 'clientId' | 'password'>;
  /** Raise Express's JSON body limit (default 100 kB) with app.useBodyParser('json', { limit }). */
  jsonLimit?: string;
  /** options.inboxStore (default: the module's in-memory store). */
  inboxStore?: PartnerInboxStore;
  /** options.webhooks.controller; unknown, as a config built from environment variables can hold. */
  controller?: unknown;
}

/** Boots the host app on 127.0.0.1 and a free port. */
export async function startWebhookTestApp(options: WebhookTestAppOptions = {}): Promise<WebhookTestApp> {
  const logs: string[] = [];
  const logger: LoggerService = {
    log: () => undefined,
    error: (m: unknown) => void logs.push(`error ${String(m)}`),
    warn: (m: unknown) => void logs.push(`warn ${String(m)}`),
  };
  @Module({
    imports: [
      EventEmitterModule.forRoot(),
      PartnerPaymentsModule.forRoot({
        baseUrl: options.baseUrl ?? 'http://127.0.0.1:9',
        ...(options.credentials ?? { apiKey: 'k', clientId: 'c', password: 'p' }),
        logger,
        webhooks: {
          secrets: options.secrets ?? ['whsec_e2e'],
          maxBodyBytes: options.maxBodyBytes,
          path: options.controllerPath,
          ...(options.controller !== undefined ? { controller: options.controller as boolean } : {}),
        },
        ...(options.inboxStore ? { inboxStore: options.inboxStore } : {}),
        ...(options.controllerPath ? { webhookController: { path: options.controllerPath } } : {}),
        ...(options.controllers ? { webhookController: false as const, isGlobal: true } : {}),
      }),
    ],
    providers: [RecordingHandlers],
    controllers: options.controllers ?? [],
  })
  class WebhookTestAppModule {}

  const app = await NestFactory.create<NestExpressApplication>(WebhookTestAppModule, {
    rawBody: options.rawBody ?? true,
    logger: false,
    // A boot error is thrown to the caller (Nest's default aborts the process, and the test run).
    abortOnError: false,
  });
  if (options.jsonLimit) app.useBodyParser('json', { limit: options.jsonLimit });
  await app.listen(0, '127.0.0.1');
  const url = `${(await app.getUrl()).replace('[::1]', '127.0.0.1')}${options.controllerPath ?? '/webhooks/partner'}`;
  return {
    app,
    url,
    handlers: app.get(RecordingHandlers),
    service: {
      ingest: app.get(PartnerWebhookIngestService),
      processing: app.get(PartnerWebhookProcessingService),
    },
    logs,
    close: () => app.close(),
  };
}
