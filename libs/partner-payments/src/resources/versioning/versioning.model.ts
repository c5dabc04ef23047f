/** POST /v1/versioning/upgrade result (provider-facts "Base address and versions"). */
export interface PartnerVersionUpgradeResult {
  previousVersion: string | null;
  currentVersion: string | null;
  raw: Record<string, unknown>;
}
