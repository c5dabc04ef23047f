/**
 * Hooks that let the kit drive a simulator where the partner's own staff (or the operator, out of
 * band) would act, and the RFI they raise.
 */

/** An RFI raised for the run (by the seedRfi hook): ids of the items probes answer. */
export interface ConformanceRfi {
  rfiId: string;
  textItemId: string;
  documentItemId: string;
  /** A `ubo_link` item whose answer_spec has applicant_id and person_id and no url (evidence §7). */
  uboLinkItemId?: string;
  /** A `ubo_link` item whose answer_spec already has a url (a link cannot be made, evidence §7). */
  uboLinkWithUrlItemId?: string;
}

/** Hooks that drive a simulator where the partner's own staff would act (never used against the partner). */
export interface ConformanceHooks {
  /** Makes a user VERIFIED (the partner's staff do that by hand, evidence §3). */
  verifyUser?(userId: string): Promise<void>;
  /**
   * Raises an RFI on a user with a text_short item and a document item, and ideally two ubo_link
   * items (one without a url, one with; the ubo-link probes are skipped without them).
   */
  seedRfi?(userId: string): Promise<ConformanceRfi>;
  /** Closes or withdraws an RFI (the partner does that on its own schedule, evidence §7). */
  setRfiStatus?(rfiId: string, status: 'resolved' | 'not_resolved' | 'withdrawn'): Promise<void>;
  /**
   * Opens and credits a new virtual account (evidence §5: it stays `activating` until the partner's
   * staff open it, and a payout draws on its balance). Without it, payout probes are skipped.
   */
  fundVirtualAccount?(virtualAccountId: string): Promise<void>;
  /** Expires every bearer token now (the partner's last 3600 s, spec 5.5). */
  expireTokens?(): Promise<void>;
  /** Makes a user under another account and answers its id (a cross-tenant read, evidence §11 N14). */
  foreignUser?(): Promise<string>;
  /**
   * Sends the account's deliveries to `url` (at the partner the operator registers it, out of band,
   * spec 6.1.1); answers what puts the previous target back.
   */
  pointWebhooksAt?(url: string, clientUuid?: string): Promise<() => Promise<void>>;
}
