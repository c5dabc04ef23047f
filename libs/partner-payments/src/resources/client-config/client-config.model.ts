/** spec 2.4 client configuration (`data` of the { success, data } envelope, spec 4.5). */
export interface PartnerClientInfo {
  id: number;
  client_uuid: string;
  company_name: string;
  /** decimal string */
  pct_fee: string;
  /** decimal string */
  fixed_fee: string;
  usd_usdc_fee: string | null;
  logo_url: string;
  created_ts: string;
  updated_ts: string;
  [key: string]: unknown;
}

export interface PartnerClientWallets {
  client_uuid: string;
  object: string;
  address: string;
  explorer_url: string;
  name: string;
  network__id: string | number;
  [key: string]: unknown;
}

export interface PartnerClientVault {
  vault_id: string;
  object: string;
  name: string;
  type: string;
  [key: string]: unknown;
}

export interface PartnerClientConfig {
  client: PartnerClientInfo;
  /** null when not yet provisioned */
  client_wallets: PartnerClientWallets | null;
  /** null when not yet provisioned */
  client_vault: PartnerClientVault | null;
  /** Banks usable for virtual accounts; [] when the API omits it (spec 2.4 default). */
  authorizedBanks: string[];
}
