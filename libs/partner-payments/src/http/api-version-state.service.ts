/**
 * `client.versionState`: the account's version pin as the module knows it (spec 9.3). With
 * `sendVersionHeader: 'until-pinned'` the X-Api-Version header stops once the account is known to be
 * pinned to `apiVersion`; `versioning.upgrade()` marks it, and an app that stores the pin (e.g. in its
 * database) marks it at start.
 */
export interface PartnerVersionState {
  /** The version the account is known to be pinned to, or null. */
  readonly pinnedVersion: string | null;
  /** Records that the account is pinned to `version` (spec 9.3), e.g. as read from your database. */
  markPinned(version: string): void;
  /** Forgets the pin (e.g. after learning the account was re-pinned out of band). */
  reset(): void;
}

/**
 * What the module knows about the account's version pin (spec 9.3). With sendVersionHeader
 * 'until-pinned', X-Api-Version stops once the account is known to be pinned to the configured
 * version. Set by PartnerVersioningService.upgrade() or by the host app (e.g. from its database).
 */
export class PartnerApiVersionState implements PartnerVersionState {
  private pinned: string | null = null;

  isPinned(version?: string): boolean {
    return this.pinned !== null && (version === undefined || this.pinned === version);
  }

  get pinnedVersion(): string | null {
    return this.pinned;
  }

  markPinned(version: string): void {
    this.pinned = version;
  }

  /** Forget the pin (e.g. after learning the account was re-pinned out of band). */
  reset(): void {
    this.pinned = null;
  }
}
