import type { PayoutStep, PayoutStepName, SeedPayoutsInput } from '../../control/control-inputs.types';
import { newId, nowIso } from '../../server/ids.util';
import { virtualAccountFor, type SandboxContext } from '../../server/sandbox-context.util';
import type { PaymentRail, RecipientRecord, VirtualAccountRecord } from '../../server/state.types';
import type { PayoutRecord } from '../../server/payout-state.types';
import { ACT_BANKS, availableBalanceCents } from '../virtual-accounts/virtual-account-status.util';
import { formatCents, parseAmountCents } from '../../server/amounts.util';
import { PAYOUT_EVENT_MESSAGES, applyPayoutStep, normaliseSteps } from './payout-lifecycle.service';

/** evidence §6: payouts go on wire, swift, wallet, ach, instant_pay and spei (GET's payment_method). */
const RAIL_BY_ACCOUNT_TYPE: Record<string, PaymentRail> = {
  WIRE: 'WIRE',
  ACH: 'ACH',
  INSTANT_PAY: 'RTP',
  SWIFT: 'SWIFT',
  SPEI: 'SPEI',
  WALLET: 'CRYPTO',
};

/**
 * The rail a payout goes on. ACT is a bank of the partner, not a recipient account type (evidence
 * §5, §6 [T1 REVISION-DOCS §4]: "the account's bank is the ACT one"): a WIRE payout from an account
 * at the ACT bank is on the ACT rail, where the partner's provider may cancel it (contract §3.4).
 */
function railOf(va: VirtualAccountRecord, recipient: RecipientRecord): PaymentRail {
  if (recipient.account_type === 'WIRE' && ACT_BANKS.includes(va.bank)) return 'ACT';
  return RAIL_BY_ACCOUNT_TYPE[recipient.account_type] ?? 'WIRE';
}

/** A new payout as POST /v1/virtual-accounts/{id}/payout stores it (status CREATED, spec 3.4). */
export function buildPayoutRecord(
  va: VirtualAccountRecord,
  recipient: RecipientRecord,
  amount: string,
  extra: {
    quoteId?: string | null;
    memo?: string | null;
    /** The fee taken out of the gross amount (evidence §6: fees come out of it); none by default. */
    feeCents?: bigint;
  } = {},
): PayoutRecord {
  const fee = extra.feeCents ?? 0n;
  const now = nowIso();
  return {
    payout_id: newId(),
    clientUuid: va.clientUuid,
    user_id: va.user_id,
    virtual_account_id: va.virtual_account_id,
    recipient_id: recipient.recipient_id,
    status: 'CREATED',
    from_amount: amount,
    from_currency: 'USD',
    to_amount: fee === 0n ? amount : formatCents((parseAmountCents(amount) as bigint) - fee),
    to_currency:
      recipient.account_type === 'WALLET' ? String(recipient.account_details.token ?? 'USDC') : 'USD',
    fee: formatCents(fee),
    payment_method: railOf(va, recipient),
    // spec 6.4.4: null until the payment is sent.
    reference_number: null,
    error_code: null,
    quote_id: extra.quoteId ?? null,
    memo: extra.memo ?? null,
    events: [
      { event_id: newId(), status: 'CREATED', message: PAYOUT_EVENT_MESSAGES.CREATED, created_at: now },
    ],
    created_at: now,
    updated_at: now,
  };
}

/** At most this many payouts per seedPayouts call (memory stays bounded; call again for more). */
export const MAX_SEEDED_PAYOUTS = 200_000;

/**
 * Control only, not the partner: `count` payouts of one virtual account to one recipient, created
 * as the API would (balance checked once for all of them) and walked through `steps` on the
 * resource only. No webhook is sent for any of it, as for an app that missed every event (spec
 * 6.1.4: never re-sent), so only reading the partner (GET or the list) can learn what happened.
 * For load tests of reconciliation, where creating 100,000 payouts through the API one by one
 * would take longer than the test.
 */
export function seedPayouts(ctx: SandboxContext, input: SeedPayoutsInput): string[] {
  const count = input.count;
  if (!Number.isInteger(count) || count < 1 || count > MAX_SEEDED_PAYOUTS)
    throw new Error(`count must be an integer from 1 to ${MAX_SEEDED_PAYOUTS}`);
  const va = virtualAccountFor(ctx, String(input.virtualAccountId));
  const recipient = ctx.store.recipients.get(String(input.recipientId).toLowerCase());
  if (!recipient || recipient.clientUuid !== va.clientUuid || recipient.user_id !== va.user_id)
    throw new Error(`no recipient ${input.recipientId} for the user of this virtual account`);
  const amount = input.amount ?? '1.00';
  // The same format and exact-cents reading as the API's payout (evidence §6 [T3r DRIFT-41]).
  const each = parseAmountCents(amount);
  if (each === undefined || each <= 0n)
    throw new Error('amount must be a positive decimal string such as "1.00"');
  const available = availableBalanceCents(ctx, va);
  if (each * BigInt(count) > available)
    throw new Error(`${count} × ${amount} exceeds the available balance ${formatCents(available)}`);
  const steps: PayoutStep[] = normaliseSteps((input.steps ?? []) as (PayoutStepName | PayoutStep)[]).map(
    (s) => ({ ...s, events: 'none' }),
  );
  const ids: string[] = [];
  for (let i = 0; i < count; i++) {
    const payout = buildPayoutRecord(va, recipient, formatCents(each));
    ctx.store.payouts.set(payout.payout_id, payout);
    for (const step of steps) applyPayoutStep(ctx, payout, step);
    ids.push(payout.payout_id);
  }
  ctx.telemetry.created('payouts', count);
  return ids;
}
