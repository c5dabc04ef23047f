import type { PayoutStep, PayoutStepName, PayoutView } from '../../control/control-inputs.types';
import {
  buildPayoutProgress,
  buildPayoutStatusChanged,
  buildPayoutTerminal,
  type FlatPartnerEvent,
  type TerminalPayoutEvent,
} from '../../webhooks/event-builders.util';
import { newId, nowIso, randomDigits, randomHex } from '../../server/ids.util';
import { recipientSummary } from '../recipients/recipients-view.util';
import type { SandboxContext } from '../../server/sandbox-context.util';
import { PAYMENT_METHOD } from './payout-view.util';
import type { PaymentRail } from '../../server/state.types';
import type { PayoutRecord, PayoutStatus } from '../../server/payout-state.types';

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

/** What a transition says in `events[].message` (the partner's wording is not recorded). */
export const PAYOUT_EVENT_MESSAGES: Record<PayoutStatus, string> = {
  CREATED: 'Payout created',
  PENDING: 'Payout pending',
  PROCESSING: 'Payout sent to the bank',
  COMPLETED: 'Payout completed',
  FAILED: 'Payout failed',
  CANCELLED: 'Payout cancelled before it was sent',
  IN_REVIEW: 'Payout under review',
  KYT_PENDING: 'Payout held for a transaction screening',
};

/** spec 6.4.4: the sending bank's reference (an IMAD, a trace number or a UETR depending on the rail). */
export function referenceFor(rail: PaymentRail): string {
  const day = new Date().toISOString().slice(0, 10).replace(/-/g, '');
  // The ACT rail is a WIRE payout from the ACT bank's account (railOf): a wire's IMAD.
  if (rail === 'WIRE' || rail === 'ACT') return `${day}MMQFMP${randomHex(1).toUpperCase()}${randomDigits(6)}`;
  if (rail === 'ACH') return randomDigits(15);
  if (rail === 'CRYPTO') return `0x${randomHex(32)}`;
  // SWIFT: a UETR, which is a UUID v4; RTP and SPEI references have no recorded format.
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
    // Not shown for events (contract §6): the GET's lowercase words, never the sandbox's own rail
    // names (CRYPTO, RTP, ACT), so an event and a read of the same payout agree.
    payment_method: PAYMENT_METHOD[p.payment_method],
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
    // spec 6.4.6: an ACT-rail provider cancellation arrives as payout.failed, status cancelled. A
    // payout CANCELLED before sending (evidence §6) has no flat event: the V2 status_changed only.
    ACT_CANCELLED: ['payout.failed', 'cancelled'],
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
  // spec 3.4 / 6.4.6: the provider cancellation is the ACT rail's; another rail cannot produce it.
  if (step.status === 'ACT_CANCELLED' && p.payment_method !== 'ACT')
    throw new Error(
      `payout ${p.payout_id} is on the ${p.payment_method} rail: an ACT cancellation happens only on the ACT rail (use CANCELLED to stop it before sending)`,
    );
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
  p.events.push({
    event_id: newId(),
    status: next,
    message: PAYOUT_EVENT_MESSAGES[next],
    created_at: p.updated_at,
  });

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
