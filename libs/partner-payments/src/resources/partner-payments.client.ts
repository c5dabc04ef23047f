import type { PartnerAuth } from '../auth/partner-auth.types';
import type { PartnerTokenManager } from '../auth/token-manager.service';
import type { PartnerApiVersionState, PartnerVersionState } from '../http/api-version-state.service';
import type { PartnerHttp } from '../http/http.types';
import type { PartnerHttpClient } from '../http/partner-http.client';
import type { Clock } from '../http/rate-limiter.policy';
import type { ResolvedPartnerOptions } from '../options-resolver.util';
import { PartnerClientConfigService } from './client-config/client-config.service';
import { PartnerPayoutsService } from './payouts/payouts.service';
import { PartnerQuotationsService } from './quotations/quotations.service';
import { PartnerRecipientsService } from './recipients/recipients.service';
import { PartnerReferenceDataService } from './reference-data/reference-data.service';
import { PartnerRfisService } from './rfis/rfis.service';
import { PartnerUsersService } from './users/users.service';
import { PartnerVersioningService } from './versioning/versioning.service';
import { PartnerVirtualAccountsService } from './virtual-accounts/virtual-accounts.service';

/** The parts of one client that its resource services are built from (one token cache, one limiter). */
export interface PartnerClientParts {
  readonly options: ResolvedPartnerOptions;
  readonly http: PartnerHttpClient;
  readonly auth: PartnerTokenManager;
  readonly versionState: PartnerApiVersionState;
  /** Time source for the reference data cache (tests); the system clock when left out. */
  readonly clock?: Clock;
}

/** One resource: its service class (also its Nest provider token) and the arguments it is built with. */
export interface PartnerResourceEntry<T = unknown> {
  readonly service: abstract new (...args: never) => T;
  readonly create: (parts: PartnerClientParts) => T;
}

function resource<A extends [] | unknown[], T>(
  service: new (...args: A) => T,
  args: (parts: PartnerClientParts) => A,
): PartnerResourceEntry<T> {
  return { service, create: (parts) => new service(...args(parts)) };
}

/**
 * Every partner resource, keyed by the property it gets on PartnerPaymentsClient. The client's
 * properties, the module's providers and exports, and createPartnerPaymentsClient all come from
 * this list, so a resource is its folder plus one line here.
 */
export const PARTNER_RESOURCES = {
  users: resource(PartnerUsersService, (p) => [p.http]),
  recipients: resource(PartnerRecipientsService, (p) => [p.http]),
  virtualAccounts: resource(PartnerVirtualAccountsService, (p) => [p.http]),
  payouts: resource(PartnerPayoutsService, (p) => [p.http]),
  rfis: resource(PartnerRfisService, (p) => [p.http]),
  clientConfig: resource(PartnerClientConfigService, (p) => [p.http, p.options]),
  versioning: resource(PartnerVersioningService, (p) => [p.http, p.versionState]),
  /** Countries and banks, cached in memory (evidence §8). */
  referenceData: resource(PartnerReferenceDataService, (p) => [
    p.http,
    p.options.referenceDataCacheTtlMs,
    p.clock,
  ]),
  /** Quotations, a route the contract does not list (evidence §11 N36). */
  quotations: resource(PartnerQuotationsService, (p) => [p.http]),
} as const satisfies Record<string, PartnerResourceEntry>;

/** A property of PartnerPaymentsClient that holds a resource service. */
export type PartnerResourceName = keyof typeof PARTNER_RESOURCES;

/** The resource services of one client, by property name. */
export type PartnerResources = {
  readonly [K in PartnerResourceName]: ReturnType<(typeof PARTNER_RESOURCES)[K]['create']>;
};

/** The names of PARTNER_RESOURCES, in its order. */
export const PARTNER_RESOURCE_NAMES = Object.keys(PARTNER_RESOURCES) as PartnerResourceName[];

/** Builds every service of PARTNER_RESOURCES once, from one client's parts. */
export function createPartnerResources(parts: PartnerClientParts): PartnerResources {
  return Object.fromEntries(
    PARTNER_RESOURCE_NAMES.map((name) => [name, PARTNER_RESOURCES[name].create(parts)]),
  ) as PartnerResources;
}

/** Carries the resource services as properties, typed from the list rather than declared one by one. */
const PartnerResourceProperties = class {
  constructor(resources: PartnerResources) {
    Object.assign(this, resources);
  }
} as new (resources: PartnerResources) => PartnerResources;

/** One injectable with every resource: `client.payouts.create(...)`. */
export class PartnerPaymentsClient extends PartnerResourceProperties {
  /**
   * Any route the resources do not cover (docs/nestjs/calling-the-partner.md, "Any other route").
   * `PartnerHttp` and its request and response types: @partner-payments/nestjs/transport.
   */
  readonly http: PartnerHttp;
  /**
   * The bearer token: warm-up, readiness (`expiresAt`), forced renewal. `PartnerAuth`:
   * @partner-payments/nestjs/transport.
   */
  readonly auth: PartnerAuth;
  /**
   * The account's API version pin (spec 9.3), for `sendVersionHeader: 'until-pinned'`.
   * `PartnerVersionState`: @partner-payments/nestjs/transport.
   */
  readonly versionState: PartnerVersionState;

  constructor(parts: PartnerClientParts) {
    super(createPartnerResources(parts));
    this.http = parts.http;
    this.auth = parts.auth;
    this.versionState = parts.versionState;
  }
}
