import { PartnerTokenManager } from '../auth/token-manager.service';
import { PartnerApiVersionState } from '../http/api-version-state.service';
import { PartnerHttpClient } from '../http/partner-http.client';
import { PartnerClientConfigService } from './client-config/client-config.service';
import { PartnerPayoutsService } from './payouts/payouts.service';
import { PartnerQuotationsService } from './quotations/quotations.service';
import { PartnerRecipientsService } from './recipients/recipients.service';
import { PartnerReferenceDataService } from './reference-data/reference-data.service';
import { PartnerRfisService } from './rfis/rfis.service';
import { PartnerUsersService } from './users/users.service';
import { PartnerVersioningService } from './versioning/versioning.service';
import { PartnerVirtualAccountsService } from './virtual-accounts/virtual-accounts.service';

/** One injectable with every resource: `client.payouts.create(...)`. */
export class PartnerPaymentsClient {
  constructor(
    readonly users: PartnerUsersService,
    readonly recipients: PartnerRecipientsService,
    readonly virtualAccounts: PartnerVirtualAccountsService,
    readonly payouts: PartnerPayoutsService,
    readonly rfis: PartnerRfisService,
    readonly clientConfig: PartnerClientConfigService,
    readonly versioning: PartnerVersioningService,
    readonly http: PartnerHttpClient,
    readonly auth: PartnerTokenManager,
    readonly versionState: PartnerApiVersionState,
    /** Countries and banks, cached in memory (evidence §8). */
    readonly referenceData: PartnerReferenceDataService,
    /** Quotations, a route the contract does not list (evidence §11 N36). */
    readonly quotations: PartnerQuotationsService,
  ) {}
}
