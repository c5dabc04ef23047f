import type { PayoutStep, PayoutStepName, PayoutView } from '../../control/control.types';
import {
  buildPayoutProgress,
  buildPayoutStatusChanged,
  buildPayoutTerminal,
  type FlatPartnerEvent,
  type TerminalPayoutEvent,
} from '../../webhooks/event.builders';
import { newId, nowIso, randomDigits, randomHex } from '../../server/ids.util';
import { recipientSummary } from '../recipients/recipients.view';
import type { SandboxContext } from '../../server/sandbox.context';
import type { PaymentRail, PayoutRecord, PayoutStatus } from '../../server/state.types';

const STEP_NAMES: readonly PayoutStepName[] = [
  'CREATED',
  'PENDING',
  'PROCESSING',
  'COMPLETED',
  'FAILED',
  'CANCELLED',
  'IN_REVIEW',
  'KYT_PENDING',
  'RETURNED',
  'ACT_CANCELLED',
];
const FINAL: readonly PayoutStatus[] = ['FAILED', 'CANCELLED'];

export function payoutView(p: PayoutRecord) {
  const { clientUuid: _c, quote_id, memo, ...rest } = p;
  return { ...rest, quote_id, extra_info: { memo }, events: p.events.map((e) => ({ ...e })) };
}

/** spec 6.4.4: the sending bank's reference (an IMAD, a trace number or a UETR depending on the rail). */
export function referenceFor(rail: PaymentRail): string {
  const day = new Date().toISOString().slice(0, 10).replace(/-/g, '');
  if (rail === 'WIRE') return `${day}MMQFMP${randomHex(1).toUpperCase()}${randomDigits(6)}`;
  if (rail === 'ACH') return randomDigits(15);
  if (rail === 'CRYPTO') return `0x${randomHex(32)}`;
  return newId();
}

function baseData(ctx: SandboxContext, p: PayoutRecord) {
  return {
    payout_id: p.payout_id,
    user_id: p.user_id,
    virtual_account_id: p.virtual_account_id,
    recipient_id: p.recipient_id,
    amount: p.from_amount,
    currency: p.from_currency,
    payment_method: p.payment_method,
    created_at: p.created_at,
    updated_at: p.updated_at,
    _recipient: recipientSummary(ctx.store.recipients.get(p.recipient_id)),
  };
}

/** Granular payout.* event of a step (spec 6.3, 6.4.4-6.4.6); holds have none (6.4.7). */
function granularEvent(
  ctx: SandboxContext,
  p: PayoutRecord,
  step: PayoutStepName,
): FlatPartnerEvent | undefined {
  const { _recipient, ...data } = baseData(ctx, p);
  if (step === 'CREATED') return buildPayoutProgress('payout.created', data);
  if (step === 'PENDING') return buildPayoutProgress('payout.pending', data);
  if (step === 'PROCESSING') return buildPayoutProgress('payout.processing', data);
  const terminal: Partial<Record<PayoutStepName, [TerminalPayoutEvent, string]>> = {
    COMPLETED: ['payout.completed', 'completed'],
    FAILED: ['payout.failed', 'failed'],
    RETURNED: ['payout.returned', 'returned'],
    ACT_CANCELLED: ['payout.failed', 'cancelled'],
    CANCELLED: ['payout.failed', 'cancelled'],
  };
  const t = terminal[step];
  if (!t) return undefined;
  return buildPayoutTerminal(t[0], {
    ...data,
    status: t[1],
    reference_number: p.reference_number,
    recipient: _recipient,
  });
}

export function normaliseSteps(
  steps: PayoutStepName | PayoutStep | (PayoutStepName | PayoutStep)[],
): PayoutStep[] {
  const list = Array.isArray(steps) ? steps : [steps];
  return list.map((s) => {
    const step = typeof s === 'string' ? { status: s } : s;
    if (!STEP_NAMES.includes(step.status))
      throw new Error(`unknown payout step ${String(step.status)}; use one of ${STEP_NAMES.join(', ')}`);
    return step;
  });
}

/**
 * One lifecycle step (spec 3.4, 6.4). Resource status UPPERCASE; RETURNED and ACT_CANCELLED resolve
 * to FAILED; reference_number assigned when the payment is sent (PROCESSING or COMPLETED).
 * Default events: holds → payout.status_changed only (6.4.7); CRYPTO rail → status_changed only
 * (terminal success by V2, "depending on rail"); fiat rails → the granular event and status_changed.
 * events 'none' resolves silently, on the resource only (6.4.8).
 */
export function applyPayoutStep(ctx: SandboxContext, p: PayoutRecord, step: PayoutStep): void {
  if (FINAL.includes(p.status)) throw new Error(`payout ${p.payout_id} is ${p.status} (final)`);
  // provider-facts: COMPLETED is not strictly final, but only a bank return or failure follows it;
  // a scenario the partner cannot produce would teach an app the wrong thing.
  if (p.status === 'COMPLETED' && step.status !== 'RETURNED' && step.status !== 'FAILED')
    throw new Error(
      `payout ${p.payout_id} is COMPLETED: only a bank return or failure (RETURNED, FAILED) can follow, not ${step.status}`,
    );
  // A return needs a payment that was sent (spec 6.4.4: reference_number is set when it is).
  if (step.status === 'RETURNED' && p.reference_number === null)
    throw new Error(`payout ${p.payout_id} was never sent (${p.status}): it cannot be returned`);
  const previous = p.status;
  const next: PayoutStatus =
    step.status === 'RETURNED' || step.status === 'ACT_CANCELLED' ? 'FAILED' : step.status;
  p.status = next;
  p.updated_at = nowIso();
  if ((next === 'PROCESSING' || next === 'COMPLETED') && p.reference_number === null)
    p.reference_number = referenceFor(p.payment_method);
  if (next === 'FAILED' || next === 'CANCELLED') {
    const fallback =
      { RETURNED: 'R01', ACT_CANCELLED: 'ACT_CANCELLED' }[step.status as 'RETURNED'] ?? 'PAYMENT_FAILED';
    p.error_code = step.errorCode ?? fallback;
  }
  p.events.push({ status: next, created_at: p.updated_at });

  const hold = next === 'KYT_PENDING' || next === 'IN_REVIEW';
  const mode = step.events ?? 'default';
  if (mode === 'none') return;
  const wantGranular =
    mode === 'granular' || mode === 'both' || (mode === 'default' && !hold && p.payment_method !== 'CRYPTO');
  const wantV2 = mode === 'v2' || mode === 'both' || mode === 'default';
  if (wantGranular) {
    const event = granularEvent(ctx, p, step.status);
    if (event)
      ctx.webhooks.emit(p.clientUuid, { ...event, data: { ...event.data, ...(step.eventExtras ?? {}) } });
  }
  if (wantV2) {
    const { _recipient, created_at: _created, ...data } = baseData(ctx, p);
    ctx.webhooks.emit(
      p.clientUuid,
      buildPayoutStatusChanged({
        ...data,
        created_at: p.updated_at,
        status: next,
        previous_status: previous,
        recipient: _recipient,
        destination_amount: p.to_amount,
        reference_number: p.reference_number,
        ...(hold
          ? {
              review_reason:
                step.reviewReason ?? (next === 'KYT_PENDING' ? 'kyt_screening' : 'manual_review'),
            }
          : {}),
      }),
    );
  }
}

export function toPayoutView(p: PayoutRecord): PayoutView {
  return {
    payout_id: p.payout_id,
    status: p.status,
    reference_number: p.reference_number,
    error_code: p.error_code,
    payment_method: p.payment_method,
  };
}
