import { PartnerLocalValidationError } from '../../errors/partner.errors';
import { PartnerApiVersionState } from '../../http/api-version-state.service';
import { PartnerHttpClient } from '../../http/partner-http.client';
import type { PartnerCallOptions } from '../shared/common.model';
import type { PartnerVersionUpgradeResult } from './versioning.model';
import { asRecord, send } from '../shared/resource.util';

/** Pins the account's API version (spec 9.3; provider-facts: body { target_version }). */
export class PartnerVersioningService {
  constructor(
    private readonly http: PartnerHttpClient,
    private readonly state: PartnerApiVersionState,
  ) {}

  /**
   * POST /v1/versioning/upgrade. Repeating the same target is harmless; an older target than the
   * current pin is refused by the server. On success PartnerApiVersionState is marked pinned, so with
   * sendVersionHeader 'until-pinned' the header stops.
   */
  async upgrade(targetVersion: string, options?: PartnerCallOptions): Promise<PartnerVersionUpgradeResult> {
    if (typeof targetVersion !== 'string' || !/^\d{4}-\d{2}-\d{2}$/.test(targetVersion)) {
      throw new PartnerLocalValidationError([
        { field: 'targetVersion', message: "must be a date string like '2026-04-14'" },
      ]);
    }
    const res = await send<unknown>(
      this.http,
      // The server refuses an older target; a 5xx on it is not replayed without a key (it is a write).
      { method: 'POST', path: '/v1/versioning/upgrade', body: { target_version: targetVersion } },
      options,
    );
    const b = asRecord(res.data);
    const d = 'current_version' in b || 'previous_version' in b ? b : asRecord(b.data);
    const str = (v: unknown): string | null => (typeof v === 'string' ? v : null);
    const currentVersion = str(d.current_version) ?? str(d.currentVersion);
    const result = {
      previousVersion: str(d.previous_version) ?? str(d.previousVersion),
      currentVersion,
      raw: b,
    };
    this.state.markPinned(currentVersion ?? targetVersion);
    return result;
  }
}
