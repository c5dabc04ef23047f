import type { PayoutStep, PayoutStepName, PayoutView } from '../../control/control.types';
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

/** evidence §6: GET's `payment_method` is the lowercase rail (wire, swift, wallet, ach, instant_pay, spei). */
const PAYMENT_METHOD: Record<PaymentRail, string> = {
  WIRE: 'wire',
  ACH: 'ach',
  RTP: 'instant_pay',
  // A WIRE payout from the ACT bank's account (railOf): `act` is not among the values seen.
  ACT: 'wire',
  SWIFT: 'swift',
  SPEI: 'spei',
  CRYPTO: 'wallet',
};

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

const mask = (value: unknown): string | null => {
  const s = typeof value === 'string' ? value : '';
  return s.length >= 4 ? `****${s.slice(-4)}` : null;
};

/**
 * GET /v1/payouts/{id} as the partner answers it (evidence §6 [D get-a-payout][T1
 * ExecutePayoutService]): `payout_id`, `origin`, decimal-string amounts, `fee` null when the
 * currencies differ, lowercase `payment_method`, masked `sender`/`recipient` account numbers,
 * `events[]` of `{event_id, status, message, created_at}`, `extra_info` with the memo.
 */
export function payoutView(ctx: SandboxContext, p: PayoutRecord) {
  const r = ctx.store.recipients.get(p.recipient_id);
  const details = r?.account_details ?? {};
  const va = ctx.store.virtualAccounts.get(p.virtual_account_id);
  const userFields = ctx.store.users.get(p.user_id)?.fields ?? {};
  const userName = [
    userFields.business_name ?? [userFields.first_name, userFields.last_name].filter(Boolean).join(' '),
  ].map((n) => (typeof n === 'string' && n !== '' ? n : null))[0];
  return {
    payout_id: p.payout_id,
    user_id: p.user_id,
    recipient_id: p.recipient_id,
    quote_id: p.quote_id,
    reference: null,
    memo: p.memo,
    origin: 'api',
    from_amount: p.from_amount,
    from_currency: p.from_currency,
    to_amount: p.to_amount,
    to_currency: p.to_currency,
    fee: p.from_currency === p.to_currency ? p.fee : null,
    payment_method: PAYMENT_METHOD[p.payment_method],
    txn_hash: p.payment_method === 'CRYPTO' ? p.reference_number : null,
    uetr: null,
    provider_reference: null,
    reference_number: p.reference_number,
    error_code: p.error_code,
    status: p.status,
    quotation: null,
    sender: {
      name: userName,
      account_number: mask(va?.account_number),
    },
    recipient: {
      name: r ? (r.company_name ?? [r.first_name, r.last_name].filter(Boolean).join(' ')) : null,
      account_type: r?.account_type ?? null,
      ...(r?.account_type === 'WALLET'
        ? { address: details.address ?? null }
        : {
            bank_name: details.bank_name ?? null,
            account_number: mask(details.account_number),
            ...(details.clabe !== undefined ? { clabe: mask(details.clabe) } : {}),
          }),
    },
    extra_info: { memo: p.memo, supporting_documents: [] },
    events: p.events.map((e) => ({ ...e })),
    created_at: p.created_at,
    updated_at: p.updated_at,
  };
}

/**
 * A row of GET /v1/payouts (evidence §6 [T1 ExecutePayoutService]): `payout_id, short_id, user_id,
 * virtual_account_id, status, origin, from_/to_ amount+currency, payment_method, sender_name,
 * recipient_name, reference, memo, created_at`.
 */
export function payoutListRow(ctx: SandboxContext, p: PayoutRecord) {
  const view = payoutView(ctx, p);
  return {
    payout_id: p.payout_id,
    short_id: p.payout_id.slice(0, 8).toUpperCase(),
    user_id: p.user_id,
    virtual_account_id: p.virtual_account_id,
    status: p.status,
    origin: view.origin,
    from_amount: p.from_amount,
    from_currency: p.from_currency,
    to_amount: p.to_amount,
    to_currency: p.to_currency,
    payment_method: view.payment_method,
    sender_name: view.sender.name,
    recipient_name: view.recipient.name,
    reference: null,
    memo: p.memo,
    created_at: p.created_at,
  };
}

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
