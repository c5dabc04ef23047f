/**
 * The partner's read views of a payout: GET /v1/payouts/{id} and a row of GET /v1/payouts
 * (evidence §6), with account numbers masked.
 */
import type { SandboxContext } from '../../server/sandbox-context.util';
import type { PaymentRail } from '../../server/state.types';
import type { PayoutRecord } from '../../server/payout-state.types';

/** evidence §6: GET's `payment_method` is the lowercase rail (wire, swift, wallet, ach, instant_pay, spei). */
export const PAYMENT_METHOD: Record<PaymentRail, string> = {
  WIRE: 'wire',
  ACH: 'ach',
  RTP: 'instant_pay',
  // A WIRE payout from the ACT bank's account (railOf): `act` is not among the values seen.
  ACT: 'wire',
  SWIFT: 'swift',
  SPEI: 'spei',
  CRYPTO: 'wallet',
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
