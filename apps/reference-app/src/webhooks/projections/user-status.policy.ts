import { canonicalPartnerStatus, isTerminalUserStatus } from '@partner-payments/nestjs/models';

/**
 * Whether a user status from an event may replace the stored one (spec 3.3, provider-facts
 * "Users"). Events can arrive re-ordered: a late user.created must not reset a VERIFIED user to
 * CREATED, and a terminal status (the library's isTerminalUserStatus: REJECTED) stays. Other
 * values (ACTIVE, REVIEW, newer ones) are accepted as received: their order is not documented.
 */
export function decideUserStatus(current: string | null, incoming: string | null | undefined): string | null {
  const next = canonicalPartnerStatus(incoming);
  if (next === null) return current;
  if (current === null) return next;
  if (isTerminalUserStatus(current)) return current;
  if (next === 'CREATED' && current !== 'CREATED') return current;
  return next;
}
