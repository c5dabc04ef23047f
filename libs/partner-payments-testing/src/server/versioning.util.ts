/** Version identifiers are date strings (spec 9.1). */
export const PINNED_VERSION = '2026-04-14';
export const RFI_VERSION = '2026-06-01';
/** What an unpinned account gets when no header is sent ("an older baseline", provider-facts). */
export const BASELINE_VERSION = '2025-09-01';
export const KNOWN_VERSIONS: readonly string[] = [BASELINE_VERSION, PINNED_VERSION, RFI_VERSION];
const VERSION_RE = /^\d{4}-\d{2}-\d{2}$/;

export const isVersionString = (value: unknown): value is string =>
  typeof value === 'string' && VERSION_RE.test(value) && !Number.isNaN(Date.parse(value));

export const isKnownVersion = (value: string | undefined): value is string =>
  value !== undefined && KNOWN_VERSIONS.includes(value);

/**
 * provider-facts: header > account pin > older baseline, where only a version the sandbox models
 * selects behaviour. An unknown well-formed header is "accepted silently with the same body" [T3r
 * DRIFT-11] and RFIs "exist only on `2026-06-01`" [T1 REVISION-DOCS §2.3]: it resolves as if it were
 * absent, so a typo such as `2026-06-02` or `2099-01-01` never unlocks the newer behaviour.
 */
export function resolveVersion(header: string | undefined, pinned: string | undefined): string {
  if (isKnownVersion(header)) return header;
  return isKnownVersion(pinned) ? pinned : BASELINE_VERSION;
}

/** Date strings compare lexically; callers pass resolved (known) versions only. */
export const versionAtLeast = (version: string, minimum: string): boolean => version >= minimum;
