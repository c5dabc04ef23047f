/**
 * What the module knows about the account's version pin (spec 9.3). With sendVersionHeader
 * 'until-pinned', X-Api-Version stops once the account is known to be pinned to the configured
 * version. Set by PartnerVersioningService.upgrade() or by the host app (e.g. from its database).
 */
export class PartnerApiVersionState {
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
