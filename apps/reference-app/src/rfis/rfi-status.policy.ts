/** spec 3.2, evidence §7: pending and answered are open; resolved and not_resolved closed; withdrawn gone. */
export const OPEN_RFI_STATUSES = ['pending', 'answered'] as const;

/** The status as stored: trimmed and lowercase (the partner's RFI statuses are lowercase, evidence §7). */
export function normaliseRfiStatus(status: unknown): string | null {
  return typeof status === 'string' && status.trim() !== '' ? status.trim().toLowerCase().slice(0, 32) : null;
}

/** Closed (spec 3.2) or withdrawn (treated as not found): an RFI that no longer takes answers. */
export function isRfiFinished(status: string): boolean {
  return ['resolved', 'not_resolved', 'withdrawn'].includes(status);
}

/**
 * The status an observation moves a row to. Statuses have no documented order (spec 3.2: "other
 * transitions: not shown") except that closing is final (evidence §7: due_at is never extended, a
 * closed RFI refuses answers): a finished row keeps its status against a late event or list row
 * saying it is open; anything else takes the observation.
 */
export function decideRfiStatus(current: string | null, observed: string | null): string | null {
  if (observed === null) return current;
  if (current !== null && isRfiFinished(current) && !isRfiFinished(observed)) return current;
  return observed;
}
