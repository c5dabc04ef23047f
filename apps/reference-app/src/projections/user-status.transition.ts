/**
 * Whether a user status from an event may replace the stored one (spec 3.3, provider-facts
 * "Users"). Events can arrive re-ordered: a late user.created must not reset a VERIFIED user to
 * CREATED, and REJECTED is terminal. Other values (ACTIVE, REVIEW, newer ones) are accepted as
 * received, since the order among them is not documented.
 */
export const TERMINAL_USER_STATUSES: readonly string[] = ['REJECTED'];

export function decideUserStatus(current: string | null, incoming: string | null | undefined): string | null {
  if (!incoming) return current;
  const next = incoming.trim().toUpperCase();
  if (current === null) return next;
  if (TERMINAL_USER_STATUSES.includes(current)) return current;
  if (next === 'CREATED' && current !== 'CREATED') return current;
  return next;
}
