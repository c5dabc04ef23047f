import type { LoggerService } from '@nestjs/common';
import axios, { type AxiosInstance } from 'axios';
import type { AxiosInstance as AxiosInstanceAsImported } from 'axios' with { 'resolution-mode': 'import' };
import { PartnerTokenManager } from './auth/token-manager.service';
import { PartnerApiVersionState } from './http/api-version-state.service';
import { PartnerHttpClient } from './http/partner-http.client';
import { PartnerTransport } from './http/transport/partner-transport.client';
import type { Clock } from './http/rate-limiter.policy';
import { resolvePartnerOptions, type ResolvedPartnerOptions } from './options-resolver.util';
import type { PartnerPaymentsModuleOptions } from './partner-payments.options';
import { PartnerPaymentsClient } from './resources/partner-payments.client';

export interface PartnerClientDependencies {
  /**
   * The axios instance to send with. The module passes HttpService.axiosRef; default a fresh
   * axios.create(). Either of axios's declaration files may describe it (its CommonJS one, as this
   * package resolves it, or its ESM one, as @nestjs/axios and an ESM app resolve it): one object.
   */
  axios?: AxiosInstance | AxiosInstanceAsImported;
  /** Logger used when options.logger is not set. */
  defaultLogger?: LoggerService;
  /** Time source for token expiry (tests). */
  clock?: Clock;
}

/** Every object of one client, sharing one token cache, one rate limiter and one version state. */
export interface PartnerClientGraph {
  options: ResolvedPartnerOptions;
  transport: PartnerTransport;
  tokens: PartnerTokenManager;
  versionState: PartnerApiVersionState;
  http: PartnerHttpClient;
  client: PartnerPaymentsClient;
}

/** Builds the graph from already resolved options. Used by PartnerPaymentsModule. */
export function buildPartnerClientGraph(
  options: ResolvedPartnerOptions,
  deps: Omit<PartnerClientDependencies, 'defaultLogger'> = {},
): PartnerClientGraph {
  const transport = new PartnerTransport(
    (deps.axios as AxiosInstance | undefined) ?? axios.create(),
    options,
  );
  const tokens = new PartnerTokenManager(transport, options, deps.clock);
  const versionState = new PartnerApiVersionState();
  const http = new PartnerHttpClient(transport, tokens, versionState, options);
  const client = new PartnerPaymentsClient({ options, http, auth: tokens, versionState, clock: deps.clock });
  return { options, transport, tokens, versionState, http, client };
}

/**
 * The client without Nest (scripts, workers, tests): validates the options like the module does
 * (throws PartnerConfigurationError naming the field) and returns the facade.
 */
export function createPartnerPaymentsClient(
  options: PartnerPaymentsModuleOptions,
  deps: PartnerClientDependencies = {},
): PartnerPaymentsClient {
  return buildPartnerClientGraph(resolvePartnerOptions(options, deps.defaultLogger), deps).client;
}
