import { HttpModule, HttpService } from '@nestjs/axios';
import {
  ConfigurableModuleBuilder,
  Logger,
  Module,
  type Abstract,
  type DynamicModule,
  type Provider,
  type Type,
} from '@nestjs/common';
import { PartnerTokenManager } from './auth/token-manager.service';
import { PartnerApiVersionState } from './http/api-version-state.service';
import { PartnerHttpClient } from './http/partner-http.client';
import { PartnerTransport } from './http/transport/partner-transport.client';
import { resolvePartnerOptions, type ResolvedPartnerOptions } from './options-resolver.util';
import { buildPartnerClientGraph, type PartnerClientGraph } from './client-graph.util';
import {
  PARTNER_LOGGER,
  PARTNER_PAYMENTS_OPTIONS,
  PARTNER_RESOLVED_OPTIONS,
} from './partner-payments.constants';
import type { PartnerPaymentsModuleOptions } from './partner-payments.options';
import {
  PARTNER_RESOURCE_NAMES,
  PARTNER_RESOURCES,
  PartnerPaymentsClient,
} from './resources/partner-payments.client';
import {
  createPartnerWebhookController,
  partnerWebhookExports,
  partnerWebhookProviders,
} from './webhooks/webhook.providers';
import { DEFAULT_PARTNER_WEBHOOK_PATH } from './webhooks/webhook-options.util';

/** Extras of forRoot/forRootAsync (outside the options, because they shape the module itself). */
export interface PartnerPaymentsModuleExtras {
  /** Register the module globally. Default false. */
  isGlobal?: boolean;
  /** The ready-made webhook controller: false to leave it out. Default { path: '/webhooks/partner' }. */
  webhookController?: false | { path?: string };
}

/** Internal: the one object graph every provider below is taken from. */
const PARTNER_CLIENT_GRAPH = Symbol('PARTNER_CLIENT_GRAPH');

/** Classes the module provides (and exports), each taken from the graph; every resource of the list. */
const GRAPH_PROVIDERS: Array<[Type | Abstract<unknown>, (g: PartnerClientGraph) => unknown]> = [
  [PartnerApiVersionState, (g) => g.versionState],
  [PartnerTransport, (g) => g.transport],
  [PartnerTokenManager, (g) => g.tokens],
  [PartnerHttpClient, (g) => g.http],
  [PartnerPaymentsClient, (g) => g.client],
  ...PARTNER_RESOURCE_NAMES.map((name): [Abstract<unknown>, (g: PartnerClientGraph) => unknown] => [
    PARTNER_RESOURCES[name].service,
    (g) => g.client[name],
  ]),
];

const CORE_PROVIDERS: Provider[] = [
  {
    // Boot-time validation: a missing credential fails the boot with a message naming the field.
    provide: PARTNER_RESOLVED_OPTIONS,
    useFactory: (options: PartnerPaymentsModuleOptions): ResolvedPartnerOptions =>
      resolvePartnerOptions(options, new Logger('PartnerPayments')),
    inject: [PARTNER_PAYMENTS_OPTIONS],
  },
  {
    provide: PARTNER_LOGGER,
    useFactory: (r: ResolvedPartnerOptions) => r.logger,
    inject: [PARTNER_RESOLVED_OPTIONS],
  },
  // PARTNER_INBOX_STORE comes with partnerWebhookProviders (options.inboxStore or the in-memory store).
  {
    // The core classes carry no decorators (they run without Nest); HttpService's own axios
    // instance (HttpModule.register below) sends, as the issue asks.
    provide: PARTNER_CLIENT_GRAPH,
    useFactory: (http: HttpService, options: ResolvedPartnerOptions) =>
      buildPartnerClientGraph(options, { axios: http.axiosRef }),
    inject: [HttpService, PARTNER_RESOLVED_OPTIONS],
  },
  ...GRAPH_PROVIDERS.map(([provide, pick]) => ({
    provide,
    useFactory: pick,
    inject: [PARTNER_CLIENT_GRAPH],
  })),
];

export const { ConfigurableModuleClass, MODULE_OPTIONS_TOKEN, OPTIONS_TYPE, ASYNC_OPTIONS_TYPE } =
  new ConfigurableModuleBuilder<PartnerPaymentsModuleOptions>({
    optionsInjectionToken: PARTNER_PAYMENTS_OPTIONS,
  })
    .setClassMethodName('forRoot')
    .setFactoryMethodName('createPartnerPaymentsOptions')
    .setExtras<PartnerPaymentsModuleExtras>(
      { isGlobal: false, webhookController: { path: DEFAULT_PARTNER_WEBHOOK_PATH } },
      (definition: DynamicModule, extras: PartnerPaymentsModuleExtras): DynamicModule => {
        const wc = extras.webhookController;
        const controller =
          wc === false ? null : createPartnerWebhookController(wc?.path ?? DEFAULT_PARTNER_WEBHOOK_PATH);
        return {
          ...definition,
          global: extras.isGlobal ?? false,
          // A private axios instance: host interceptors on the global axios never see our headers.
          imports: [...(definition.imports ?? []), HttpModule.register({})],
          providers: [...(definition.providers ?? []), ...CORE_PROVIDERS, ...partnerWebhookProviders],
          controllers: [...(definition.controllers ?? []), ...(controller ? [controller] : [])],
          exports: [
            ...(definition.exports ?? []),
            PARTNER_PAYMENTS_OPTIONS,
            PARTNER_RESOLVED_OPTIONS,
            PARTNER_LOGGER,
            ...GRAPH_PROVIDERS.map(([cls]) => cls),
            ...partnerWebhookExports,
          ],
        };
      },
    )
    .build();

/** The argument of `forRoot`: the options plus the extras. */
export type PartnerPaymentsModuleForRootOptions = typeof OPTIONS_TYPE;
/** The argument of `forRootAsync`: `{ imports, inject, useFactory | useClass | useExisting }` plus the extras. */
export type PartnerPaymentsModuleAsyncOptions = typeof ASYNC_OPTIONS_TYPE;
/** What a `useClass` / `useExisting` options class implements. */
export interface PartnerPaymentsOptionsFactory {
  createPartnerPaymentsOptions(): PartnerPaymentsModuleOptions | Promise<PartnerPaymentsModuleOptions>;
}

/** `forRoot(options)` / `forRootAsync({ imports, inject, useFactory | useClass | useExisting })`. */
@Module({})
export class PartnerPaymentsModule extends ConfigurableModuleClass {}
