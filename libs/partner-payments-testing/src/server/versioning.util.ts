/** Version identifiers are date strings (spec 9.1). */
export const PINNED_VERSION = '2026-04-14';
export const RFI_VERSION = '2026-06-01';
/** What an unpinned account gets when no header is sent ("an older baseline", provider-facts). */
export const BASELINE_VERSION = '2025-09-01';
export const KNOWN_VERSIONS: readonly string[] = [BASELINE_VERSION, PINNED_VERSION, RFI_VERSION];
const VERSION_RE = /^\d{4}-\d{2}-\d{2}$/;

export const isVersionString = (value: unknown): value is string =>
  typeof value === 'string' && VERSION_RE.test(value) && !Number.isNaN(Date.parse(value));

/** provider-facts: header > account pin > older baseline. */
export function resolveVersion(header: string | undefined, pinned: string | undefined): string {
  return header ?? pinned ?? BASELINE_VERSION;
}

/** Date strings compare lexically. */
export const versionAtLeast = (version: string, minimum: string): boolean => version >= minimum;
