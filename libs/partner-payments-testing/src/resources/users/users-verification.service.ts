import {
  buildUserStatusChanged,
  buildUserVerificationAccepted,
  buildUserVerificationFailed,
} from '../../webhooks/event-builders.util';
import { nowIso } from '../../server/ids.util';
import type { SandboxContext } from '../../server/sandbox-context.util';
import type { UserRecord, UserStatus, VerificationOutcome } from '../../server/state.types';
import { verificationCanTrigger } from './users-eligibility.policy';

/**
 * A user's verification as the partner's sandbox runs it (evidence §3 [D known-limitations][T3r
 * DRIFT-23]): once the data triggers it, CREATED → VERIFYING → REVIEW on its own, and there it
 * stays: VERIFIED or REJECTED come from the partner's staff (here: the control API). Without
 * `source_of_funds` a user is rejected within seconds, the reason only in the webhook. Options
 * the partner does not have, off by default: `userVerification: 'auto-approve'` (REVIEW →
 * VERIFIED) and `'ein-table'` (the docs' forcing-outcomes table for businesses [T1 REVISION-DOCS §5]).
 */
export type UserVerificationMode = 'manual' | 'auto-approve' | 'ein-table';

interface Step {
  /** The step runs only while the user is in one of these; a control call or a rejection moved it on otherwise. */
  from: UserStatus[];
  run: () => void;
}

const DEFAULT_REASONS: Record<'declined' | 'session_expired', string> = {
  declined: 'Verification declined by the provider',
  session_expired: 'Verification session expired',
};

function setStatus(ctx: SandboxContext, user: UserRecord, next: UserStatus): void {
  const previous = user.status;
  if (previous === next) return;
  user.status = next;
  user.updated_at = nowIso();
  // evidence §9: { event_id, user_id, previous_status, new_status }, UPPERCASE, no `status`.
  ctx.webhooks.emit(
    user.clientUuid,
    buildUserStatusChanged({ user_id: user.user_id, previous_status: previous, new_status: next }),
  );
}

function accept(ctx: SandboxContext, user: UserRecord): void {
  user.providerFailing = false;
  setStatus(ctx, user, 'VERIFIED');
  ctx.webhooks.emit(user.clientUuid, buildUserVerificationAccepted({ user_id: user.user_id }));
}

/** spec 3.3: REJECTED is terminal and sends user.verification.failed; evidence §9: reasons[] only there. */
function reject(ctx: SandboxContext, user: UserRecord, reasons: string[]): void {
  setStatus(ctx, user, 'REJECTED');
  ctx.webhooks.emit(user.clientUuid, buildUserVerificationFailed({ user_id: user.user_id, reasons }));
}

const toVerifying = (ctx: SandboxContext, user: UserRecord): Step => ({
  from: ['CREATED'],
  run: () => setStatus(ctx, user, 'VERIFYING'),
});
const toReview = (ctx: SandboxContext, user: UserRecord): Step => ({
  from: ['VERIFYING'],
  run: () => setStatus(ctx, user, 'REVIEW'),
});
const acceptFrom = (ctx: SandboxContext, user: UserRecord, from: UserStatus[]): Step => ({
  from,
  run: () => accept(ctx, user),
});
const rejectFrom = (ctx: SandboxContext, user: UserRecord, from: UserStatus[], reasons: string[]): Step => ({
  from,
  run: () => reject(ctx, user, reasons),
});

/** Steps run at once when verificationDelayMs is 0, else one per delay; a step that no longer applies ends the run. */
function runSteps(ctx: SandboxContext, user: UserRecord, steps: Step[]): void {
  const run = user.verificationRun;
  const apply = (step: Step): boolean => {
    if (ctx.store.users.get(user.user_id) !== user || !step.from.includes(user.status)) return false;
    // The control decided meanwhile (an outage, an outcome): the steps scheduled before it are void.
    if (user.verificationRun !== run) return false;
    step.run();
    return true;
  };
  const delay = ctx.options.verificationDelayMs;
  if (delay <= 0) {
    for (const step of steps) if (!apply(step)) return;
    return;
  }
  const schedule = (i: number): void => {
    if (i >= steps.length) return;
    const timer = setTimeout(() => {
      ctx.timers.delete(timer);
      if (apply(steps[i])) schedule(i + 1);
    }, delay);
    ctx.timers.add(timer);
  };
  schedule(0);
}

/** The opt-in forcing-outcomes table (business `ein`) [T1 REVISION-DOCS §5]; unverified at the partner. */
function einSteps(ctx: SandboxContext, user: UserRecord): Step[] {
  const ein = String(user.fields.ein ?? '');
  if (ein === '111111111') return [rejectFrom(ctx, user, ['VERIFYING'], ['Business verification failed'])];
  if (ein === '111111113')
    return [
      rejectFrom(
        ctx,
        user,
        ['VERIFYING'],
        ['Data verification failed: ein does not match the business records'],
      ),
    ];
  if (ein === '222221006')
    return [toReview(ctx, user), rejectFrom(ctx, user, ['REVIEW'], ['Rejected in review'])];
  if (ein === '222221005') return [toReview(ctx, user), acceptFrom(ctx, user, ['REVIEW'])];
  return [acceptFrom(ctx, user, ['VERIFYING'])];
}

/** What follows VERIFYING for a user whose verification started. */
function outcomeSteps(ctx: SandboxContext, user: UserRecord): Step[] {
  const preset = ctx.store.nextVerificationOutcome;
  if (preset === 'provider_outage')
    return [{ from: ['VERIFYING'], run: () => void (user.providerFailing = true) }];
  if (preset === 'approved') return [toReview(ctx, user), acceptFrom(ctx, user, ['REVIEW'])];
  if (preset === 'declined' || preset === 'session_expired')
    return [rejectFrom(ctx, user, ['VERIFYING'], [DEFAULT_REASONS[preset]])];
  const mode = ctx.options.userVerification;
  if (mode === 'auto-approve') return [toReview(ctx, user), acceptFrom(ctx, user, ['REVIEW'])];
  if (mode === 'ein-table' && user.type === 'business') return einSteps(ctx, user);
  return [toReview(ctx, user)];
}

/** After POST /v1/users: auto-reject without source_of_funds, else start once the data triggers. */
export function afterCreate(ctx: SandboxContext, user: UserRecord): void {
  const sof = user.fields.source_of_funds;
  if (typeof sof !== 'string' || sof.trim() === '') {
    // [D known-limitations]: auto-rejected within seconds; the reason only in the webhook.
    runSteps(ctx, user, [
      toVerifying(ctx, user),
      rejectFrom(ctx, user, ['VERIFYING'], ['source_of_funds is required']),
    ]);
    return;
  }
  startIfTriggered(ctx, user);
}

/** After a PUT: a CREATED user whose data now completes a product starts verification. */
export function startIfTriggered(ctx: SandboxContext, user: UserRecord): void {
  if (user.status !== 'CREATED' || user.verificationTriggered || !verificationCanTrigger(user)) return;
  user.verificationTriggered = true;
  runSteps(ctx, user, [toVerifying(ctx, user), ...outcomeSteps(ctx, user)]);
}

/**
 * The partner's staff decide (control `setUserVerificationOutcome`). Refuses what the partner could
 * not do: anything on a REJECTED user (terminal), approving a user whose data never triggered
 * verification, and a rejection while the provider call is failing (spec 3.3: the internal re-run
 * never rejects).
 */
export function applyVerificationOutcome(
  ctx: SandboxContext,
  user: UserRecord,
  outcome: VerificationOutcome,
  reasons?: string[],
): UserStatus {
  if (user.status === 'REJECTED') throw new Error(`user ${user.user_id} is REJECTED (terminal)`);
  if (!['approved', 'declined', 'provider_outage', 'session_expired'].includes(outcome))
    throw new Error(`unknown verification outcome ${String(outcome)}`);
  const triggered = user.verificationTriggered || user.status !== 'CREATED';
  if (!triggered && outcome !== 'declined' && outcome !== 'session_expired')
    throw new Error(
      `user ${user.user_id} has not triggered verification: every product still misses fields (GET /v1/users/{id} missing_fields)`,
    );
  user.verificationRun += 1; // the automatic steps still waiting (verificationDelayMs) no longer apply
  if (outcome === 'provider_outage') {
    if (user.status === 'VERIFIED')
      throw new Error(`user ${user.user_id} is VERIFIED: no provider call is pending`);
    setStatus(ctx, user, 'VERIFYING');
    user.providerFailing = true;
    return user.status;
  }
  if (outcome === 'approved') {
    if (user.status === 'VERIFIED') return user.status;
    // Forward only, each step announced: CREATED → VERIFYING → REVIEW → VERIFIED.
    if (user.status === 'CREATED') setStatus(ctx, user, 'VERIFYING');
    if (user.status === 'VERIFYING') setStatus(ctx, user, 'REVIEW');
    accept(ctx, user);
    return user.status;
  }
  if (user.providerFailing)
    throw new Error(
      `user ${user.user_id}: its verification provider call is failing (provider_outage), and spec 3.3 says the ` +
        `internal re-run never rejects, so '${outcome}' cannot make it REJECTED; approve it once the provider answers`,
    );
  if (user.status === 'CREATED') setStatus(ctx, user, 'VERIFYING');
  reject(ctx, user, reasons && reasons.length > 0 ? reasons : [DEFAULT_REASONS[outcome]]);
  return user.status;
}
