import { PartnerLocalValidationError } from '../../errors/partner.errors';
import { PartnerHttpClient } from '../../http/partner-http.client';
import { encodePathSegment } from '../../http/url.util';
import type { PartnerCallOptions } from '../shared/common.model';
import type { PartnerClientConfig, PartnerClientInfo } from './client-config.model';
import type { ResolvedPartnerOptions } from '../../options-resolver.util';
import { asRecord, send } from '../shared/resource.util';

/** The calling client's own configuration (spec 2.4, 4.5; provider-facts: GET /v1/clients/{client_uuid}). */
export class PartnerClientConfigService {
  constructor(
    private readonly http: PartnerHttpClient,
    private readonly options: ResolvedPartnerOptions,
  ) {}

  /** Returns `data` of the { success, data } envelope. Uses options.clientUuid unless one is passed. */
  async get(clientUuid?: string, options?: PartnerCallOptions): Promise<PartnerClientConfig> {
    const uuid = clientUuid ?? this.options.clientUuid;
    if (!uuid) {
      throw new PartnerLocalValidationError([
        { field: 'clientUuid', message: 'is required: set the clientUuid module option' },
      ]);
    }
    const res = await send<unknown>(
      this.http,
      { method: 'GET', path: `/v1/clients/${encodePathSegment(uuid)}` },
      options,
    );
    const body = asRecord(res.data);
    const data = asRecord('data' in body ? body.data : body);
    return {
      client: asRecord(data.client) as PartnerClientInfo,
      client_wallets: (data.client_wallets ?? null) as PartnerClientConfig['client_wallets'],
      client_vault: (data.client_vault ?? null) as PartnerClientConfig['client_vault'],
      // spec 2.4: default [].
      authorizedBanks: Array.isArray(data.authorizedBanks)
        ? data.authorizedBanks.filter((b): b is string => typeof b === 'string')
        : [],
    };
  }
}
