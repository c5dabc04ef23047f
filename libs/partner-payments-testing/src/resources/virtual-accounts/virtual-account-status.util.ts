import { PINNED_VERSION } from '../../server/versioning.util';
import { randomDigits, nowIso } from '../../server/ids.util';
import { amountCents } from '../../server/amounts.util';
import { virtualAccountFor, type SandboxContext } from '../../server/sandbox-context.util';
import type { VirtualAccountRecord, VirtualAccountStatus } from '../../server/state.types';

/**
 * The ACT bank among the contract's four placeholders (docs/partner-api.md §2.4 names only
 * <bank_a>..<bank_d>; evidence §5/§6 say one bank is "the ACT one" and ask to model it as a
 * per-bank flag on a placeholder). Its accounts show `PENDING-ACT-ACCOUNT` until provisioned.
 */
export const ACT_BANKS: readonly string[] = ['bank_d'];
export const PENDING_ACCOUNT_NUMBER = 'PENDING-ACT-ACCOUNT';

/**
 * evidence §5 [D state-machines][T1 REVISION-DOCS §2.3]: 2026-04-14 says `rfi`, `approved` (covers
 * activating and active), `declined`, `deactivated`; "2026-06-01/default" says pending ->
 * activating -> active, failed, deactivated. `frozen` exists on both. The state-machines page
 * words it: the raw enum "on the default / newer API versions"; pin to 2026-04-14 for the older
 * words. So only 2026-04-14 translates: the baseline an unpinned account gets without a header
 * answers the raw enum too (an app that reads `approved` there would break at the partner).
 */
export function statusForVersion(status: VirtualAccountStatus, version: string | undefined): string {
  if (version !== PINNED_VERSION) return status;
  switch (status) {
    // `approved` covers activating and active only; an account not yet activating is under review.
    case 'pending':
      return 'rfi';
    case 'activating':
    case 'active':
      return 'approved';
    case 'failed':
      return 'declined';
    default:
      return status;
  }
}

/** The stored status a control or filter names, in either vocabulary. */
export function statusFromAnyVocabulary(value: string): VirtualAccountStatus | undefined {
  const old: Record<string, VirtualAccountStatus> = {
    approved: 'active',
    declined: 'failed',
    rfi: 'pending',
  };
  const all: VirtualAccountStatus[] = ['pending', 'activating', 'active', 'failed', 'deactivated', 'frozen'];
  return (all as string[]).includes(value) ? (value as VirtualAccountStatus) : old[value];
}

/** evidence §5 [D known-limitations]: funds are ready only with a real account number. */
export const isProvisioned = (va: VirtualAccountRecord): boolean =>
  va.account_number !== null && va.account_number !== PENDING_ACCOUNT_NUMBER;

/** The partner's staff finish opening the bank account: the sandbox does it through a control. */
export function provisionVirtualAccount(
  ctx: SandboxContext,
  virtualAccountId: string,
  outcome: 'active' | 'failed' = 'active',
): VirtualAccountRecord {
  const va = virtualAccountFor(ctx, virtualAccountId);
  if (!['pending', 'activating'].includes(va.status)) {
    throw new Error(
      `virtual account ${virtualAccountId} is ${va.status}; only pending or activating accounts can be provisioned`,
    );
  }
  va.status = outcome;
  if (outcome === 'active') {
    va.account_number = randomDigits(12);
    va.routing_number = '021000021';
  }
  va.updated_at = nowIso();
  return va;
}

/**
 * The available balance, derived from the shared state so it can never disagree with it: completed
 * deposits in, payouts out unless they failed or were cancelled before sending (issue: a payout lowers
 * the balance; KYT_REJECTED/PENDING deposits are not available, evidence §5 [T1 REVISION-DOCS §2.1]).
 */
export function availableBalanceCents(ctx: SandboxContext, va: VirtualAccountRecord): bigint {
  // Exact BigInt cents (amounts.util): a balance of 15-digit amounts keeps its cents.
  let total = 0n;
  for (const d of ctx.store.deposits.values())
    if (d.virtual_account_id === va.virtual_account_id && d.status === 'COMPLETED')
      total += amountCents(d.amount);
  for (const p of ctx.store.payouts.values())
    if (p.virtual_account_id === va.virtual_account_id && !['FAILED', 'CANCELLED'].includes(p.status))
      total -= amountCents(p.from_amount);
  return total;
}
