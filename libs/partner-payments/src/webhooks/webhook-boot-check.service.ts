import { Inject, Injectable, Optional, type OnApplicationBootstrap } from '@nestjs/common';
import { HttpAdapterHost, ModulesContainer } from '@nestjs/core';
import { EVENT_LISTENER_METADATA } from '@nestjs/event-emitter';
import { PartnerDerivedEvent, PartnerEvent } from './events/partner-event.constants';
import { PARTNER_WEBHOOK_CONTROLLER_PATH } from './partner-webhook.controller';
import { probeRawBody, type RawBodyProbeResult } from './raw-body-probe.util';
import { PARTNER_WEBHOOK_CONFIG } from '../partner-payments.constants';
import { type PartnerWebhookConfig } from './webhook-options.util';
import { PartnerWebhookDispatcher } from './events/webhook-dispatcher.service';

const PARTNER_NAMES: ReadonlySet<string> = new Set<string>([
  ...Object.values(PartnerEvent),
  ...Object.values(PartnerDerivedEvent),
]);

interface ListenerMetadata {
  event: string | symbol | Array<string | symbol>;
  options?: { suppressErrors?: boolean; async?: boolean; nextTick?: boolean; promisify?: boolean };
}

export interface PartnerHandlerInfo {
  owner: string;
  method: string;
  event: string;
  suppressErrors: boolean;
  /**
   * Registered with { async: true } or { nextTick: true } without { promisify: true }: EventEmitter2
   * then calls it on a later tick and returns nothing, so emitAsync neither waits for it nor sees
   * its error (the entry is marked processed first, a failure is lost).
   */
  detached: boolean;
}

export interface PartnerWebhookBootReport {
  handlers: PartnerHandlerInfo[];
  routes: string[];
  /** Whether JSON bodies keep their raw bytes (NestFactory.create(..., { rawBody: true })). */
  rawBody: RawBodyProbeResult;
  warnings: string[];
}

/**
 * Boot-time warnings for set-ups that would lose events quietly:
 * - handlers of partner events exist but no webhook secret is configured (every delivery gets 401);
 * - handlers use @OnEvent's default suppressErrors (a failing handler would still mark the entry
 *   processed, so it is never retried), or { async: true } / { nextTick: true } (same, detached);
 * - no EventEmitter2 (EventEmitterModule.forRoot() not imported);
 * - options.webhooks.path differs from the route the module registered;
 * - webhooks are configured but no inboxStore is given: the default in-memory store is not durable
 *   (a restart loses acknowledged events not yet processed; when full it drops the oldest of them);
 * - the app was not created with { rawBody: true } (probed on the Express JSON parser; every
 *   delivery would otherwise get a 500 that says so).
 */
@Injectable()
export class PartnerWebhookBootCheck implements OnApplicationBootstrap {
  lastReport: PartnerWebhookBootReport | null = null;

  constructor(
    private readonly modules: ModulesContainer,
    @Inject(PARTNER_WEBHOOK_CONFIG) private readonly config: PartnerWebhookConfig,
    private readonly dispatcher: PartnerWebhookDispatcher,
    @Optional() private readonly adapterHost?: HttpAdapterHost,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    const report = this.inspect();
    if (this.config.configured) {
      report.rawBody = await probeRawBody(this.adapterHost?.httpAdapter?.getInstance?.());
      if (report.rawBody === 'missing') {
        report.warnings.push(
          'Partner webhooks: the app keeps no raw request body, so signatures cannot be verified and every ' +
            'delivery will be answered 500. Create it with NestFactory.create(AppModule, { rawBody: true }).',
        );
      }
    }
    for (const warning of report.warnings) this.config.logger.warn(warning);
    this.lastReport = report;
  }

  /** The synchronous part of the check (handlers, routes, emitter); rawBody is probed at bootstrap. */
  inspect(): PartnerWebhookBootReport {
    const handlers: PartnerHandlerInfo[] = [];
    const routes: string[] = [];
    for (const moduleRef of this.modules.values()) {
      for (const wrapper of [...moduleRef.providers.values(), ...moduleRef.controllers.values()]) {
        const ctor = wrapper.metatype as unknown;
        if (typeof ctor === 'function' && PARTNER_WEBHOOK_CONTROLLER_PATH in ctor) {
          routes.push(String((ctor as Record<symbol, unknown>)[PARTNER_WEBHOOK_CONTROLLER_PATH]));
        }
        if (wrapper.isAlias) continue;
        const instance: unknown = wrapper.instance;
        if (typeof instance !== 'object' || instance === null) continue;
        handlers.push(...listHandlers(instance));
      }
    }
    const warnings: string[] = [];
    const names = [...new Set(handlers.map((h) => h.event))].join(', ');
    if (handlers.length > 0 && this.config.secrets.length === 0) {
      warnings.push(
        `Handlers exist for partner events (${names}) but no webhook secret is configured ` +
          '(options.webhooks.secrets): every delivery will be refused with 401 and nothing will reach them.',
      );
    }
    for (const h of handlers.filter((x) => x.suppressErrors)) {
      warnings.push(
        `${h.owner}.${h.method} handles '${h.event}' with @OnEvent's default suppressErrors: a failure will be ` +
          'logged and the event marked processed, never retried. Use @OnPartnerEvent or { suppressErrors: false }.',
      );
    }
    for (const h of handlers.filter((x) => x.detached)) {
      warnings.push(
        `${h.owner}.${h.method} handles '${h.event}' with { async: true } or { nextTick: true }: it runs detached, ` +
          'so the event is marked processed before it runs and its failure is never retried. Drop the option.',
      );
    }
    if ((handlers.length > 0 || this.config.configured) && !this.dispatcher.hasEmitter) {
      warnings.push(
        'Partner webhooks need EventEmitter2: import EventEmitterModule.forRoot() in your AppModule.',
      );
    }
    // spec 6.1.4: an event acknowledged and then lost is not redelivered. An explicit inboxStore
    // (even a PartnerInMemoryInboxStore, as tests pass) is a choice made knowingly: no warning.
    if (this.config.configured && this.config.secrets.length > 0 && this.config.inboxStore === null) {
      warnings.push(
        'Partner webhooks use the default in-memory inbox (no options.inboxStore): it is not durable, so a ' +
          'restart loses events acknowledged but not yet processed, and when full it drops the oldest ' +
          'unprocessed ones (each logged as an error). The partner does not redeliver (spec 6.1.4): pass a ' +
          'durable inboxStore in production.',
      );
    }
    const unique = [...new Set(routes)];
    if (this.config.configured && unique.length > 0 && !unique.includes(this.config.path)) {
      warnings.push(
        `options.webhooks.path is '${this.config.path}' but the webhook route is registered at ` +
          `'${unique.join("', '")}'; set the path in the module's webhookController extras.`,
      );
    }
    return { handlers, routes: unique, rawBody: 'unknown', warnings };
  }
}

function listHandlers(instance: object): PartnerHandlerInfo[] {
  const found: PartnerHandlerInfo[] = [];
  const seen = new Set<string>();
  for (
    let proto = Object.getPrototypeOf(instance);
    proto && proto !== Object.prototype;
    proto = Object.getPrototypeOf(proto)
  ) {
    for (const method of Object.getOwnPropertyNames(proto)) {
      if (method === 'constructor' || seen.has(method)) continue;
      seen.add(method);
      const fn = Object.getOwnPropertyDescriptor(proto, method)?.value as unknown;
      if (typeof fn !== 'function') continue;
      const raw = Reflect.getMetadata(EVENT_LISTENER_METADATA, fn) as
        ListenerMetadata | ListenerMetadata[] | undefined;
      for (const meta of raw === undefined ? [] : Array.isArray(raw) ? raw : [raw]) {
        const events = Array.isArray(meta.event) ? meta.event : [meta.event];
        for (const event of events) {
          if (typeof event !== 'string' || !PARTNER_NAMES.has(event)) continue;
          found.push({
            owner: instance.constructor.name,
            method,
            event,
            suppressErrors: meta.options?.suppressErrors ?? true,
            detached:
              Boolean(meta.options?.async || meta.options?.nextTick) && meta.options?.promisify !== true,
          });
        }
      }
    }
  }
  return found;
}
