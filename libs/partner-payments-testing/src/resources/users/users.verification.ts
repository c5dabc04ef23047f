import {
  buildUserStatusChanged,
  buildUserVerificationAccepted,
  buildUserVerificationFailed,
} from '../../webhooks/event.builders';
import { nowIso } from '../../server/ids.util';
import type { SandboxContext } from '../../server/sandbox.context';
import type { UserRecord, UserStatus, VerificationOutcome } from '../../server/state.types';

const OUTCOMES: readonly VerificationOutcome[] = [
  'approved',
  'declined',
  'provider_outage',
  'session_expired',
];

/**
 * The outcome a new user's verification gets, driven by input:
 *  - control `setNextVerificationOutcome` wins;
 *  - a missing source_of_funds is declined (provider-facts: Users);
 *  - metadata `sandbox_verification` = approved | declined | provider_outage | session_expired;
 *  - an email tag `+declined`, `+provider_outage`, `+session_expired` (e.g. jane+provider_outage@x.io);
 *  - otherwise approved.
 */
export function verificationOutcomeFor(
  ctx: SandboxContext,
  user: UserRecord,
): { outcome: VerificationOutcome; reasons: string[] } {
  if (ctx.store.nextVerificationOutcome)
    return { outcome: ctx.store.nextVerificationOutcome, reasons: ['sandbox: set by control'] };
  if (typeof user.fields.source_of_funds !== 'string' || !user.fields.source_of_funds) {
    return { outcome: 'declined', reasons: ['source_of_funds is missing'] };
  }
  const fromMeta = user.metadata.sandbox_verification as VerificationOutcome | undefined;
  if (fromMeta && OUTCOMES.includes(fromMeta))
    return { outcome: fromMeta, reasons: [`sandbox: ${fromMeta}`] };
  const email = typeof user.fields.email === 'string' ? user.fields.email : '';
  const tag = OUTCOMES.find((o) => email.includes(`+${o}@`));
  if (tag) return { outcome: tag, reasons: [`sandbox: ${tag}`] };
  return { outcome: 'approved', reasons: [] };
}

function setStatus(ctx: SandboxContext, user: UserRecord, next: UserStatus): void {
  const previous = user.status;
  if (previous === next) return;
  user.status = next;
  user.updated_at = nowIso();
  ctx.webhooks.emit(
    user.clientUuid,
    buildUserStatusChanged({ user_id: user.user_id, previous_status: previous, new_status: next }),
  );
}

export function startVerification(ctx: SandboxContext, user: UserRecord): void {
  setStatus(ctx, user, 'VERIFYING');
}

/**
 * spec 3.3 / 6.4.9: a provider outage keeps VERIFYING and sends no failure event; a decline (or a
 * rare session expiry) → REJECTED (terminal) + user.verification.failed; approval → VERIFIED.
 */
export function applyVerificationOutcome(
  ctx: SandboxContext,
  user: UserRecord,
  outcome: VerificationOutcome,
  reasons: string[] = [],
): UserStatus {
  if (user.status === 'REJECTED') throw new Error(`user ${user.user_id} is REJECTED (terminal)`);
  if (outcome === 'provider_outage') {
    if (user.status === 'CREATED') setStatus(ctx, user, 'VERIFYING');
    return user.status;
  }
  if (user.status === 'CREATED') setStatus(ctx, user, 'VERIFYING');
  if (outcome === 'approved') {
    setStatus(ctx, user, 'VERIFIED');
    ctx.webhooks.emit(user.clientUuid, buildUserVerificationAccepted({ user_id: user.user_id }));
    return user.status;
  }
  setStatus(ctx, user, 'REJECTED');
  const why = reasons.length
    ? reasons
    : [outcome === 'session_expired' ? 'verification session expired' : 'declined by provider'];
  ctx.webhooks.emit(user.clientUuid, buildUserVerificationFailed({ user_id: user.user_id, reasons: why }));
  return user.status;
}
