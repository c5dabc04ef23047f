import type { Router } from 'express';
import { requireAuth, withVersion } from '../../middleware/auth.middleware';
import { buildPayoutProgress } from '../../webhooks/event-builders.util';
import { isUuid } from '../../server/ids.util';
import { requireIdempotencyKey } from '../../middleware/idempotency.middleware';
import { sendError, sendNotFound, sendRouteNotMatched, sendValidation } from '../../server/http-errors.util';
import type { FieldError } from '../metadata.rules';
import { payoutListRow, payoutView } from './payout-view.util';
import { matchingPayouts } from './payout-list-query.util';
import { buildPayoutRecord } from './payout-seed.service';
import { runPayoutScript } from './payout-scripts.service';
import { accountOf, requestState, type SandboxContext } from '../../server/sandbox-context.util';
import { findOwnVirtualAccount } from '../virtual-accounts/virtual-accounts.routes';
import { isJsonObject } from '../../server/request-schema.util';
import { ACT_BANKS, availableBalanceCents } from '../virtual-accounts/virtual-account-status.util';
import { formatCents, parseAmountCents } from '../../server/amounts.util';
import { feeCentsOf } from './payout-preview.routes';
import { heldDepositRefusal, quoteRefusal, virtualAccountUnusable } from './payout-refusals.rules';

const MEMO_MAX = 255;
const LIST_PARAMS = new Set(['user_id', 'status', 'from_date', 'to_date', 'page', 'limit']);

/** provider-facts Payouts: create 201 { id, status: 'created' }, GET bare { payout_id, UPPERCASE }, weak list. */
export function registerPayoutRoutes(router: Router, ctx: SandboxContext): void {
  const auth = [withVersion(ctx), requireAuth(ctx)];

  router.post('/v1/virtual-accounts/:id/payout', ...auth, requireIdempotencyKey(ctx), (req, res) => {
    const va = findOwnVirtualAccount(ctx, res, String(req.params.id));
    if (!va) return;
    // provider-facts: funds are usable only once account_number is non-null and not the
    // placeholder; a declined or deactivated account has none. Accepting the payout here would
    // hide an app that pays out before checking.
    const unusable = virtualAccountUnusable(va) ?? heldDepositRefusal(ctx, va);
    if (unusable) return sendError(res, 422, 'unprocessable', unusable);
    const b = requestState(res).body as Record<string, unknown> | undefined;
    if (typeof b !== 'object' || b === null)
      return sendValidation(res, [{ field: 'body', message: 'must be a JSON object' }]);
    const errors: FieldError[] = [];
    // evidence §6 [T3r DRIFT-41]: the amount pattern; read into exact cents (amounts.util), as a
    // double would turn "999999999999999.99" into 1000000000000000.
    const cents = parseAmountCents(b.amount);
    if (cents === undefined || cents <= 0n) {
      errors.push({ field: 'amount', message: 'must be a positive decimal string such as "100.00"' });
    }
    if (b.currency !== 'USD') errors.push({ field: 'currency', message: 'must be USD' });
    if (!isUuid(b.recipient_id)) errors.push({ field: 'recipient_id', message: 'must be a UUID' });
    if (b.quote_id !== undefined && typeof b.quote_id !== 'string')
      errors.push({ field: 'quote_id', message: 'must be a string' });
    // Inferred, not observed on this route: evidence §6 [T1 ExecutePayoutService] (code reading)
    // names these fields of the execute body; client_markup an object as the preview requires it
    // ([T3r DRIFT-42]; null a type error there too, DRIFT-43); the other two as strings.
    if (b.client_markup !== undefined && !isJsonObject(b.client_markup))
      errors.push({ field: 'client_markup', message: 'must be an object' });
    // evidence §6 [T1 ExecutePayoutService]: `quote_id` or `client_markup`, not both: the quote's
    // price already holds the markup given at preview. Refused rather than one silently ignored.
    else if (b.client_markup !== undefined && b.quote_id !== undefined)
      errors.push({ field: 'client_markup', message: 'must not be sent with quote_id' });
    if (b.nature_of_payment !== undefined && typeof b.nature_of_payment !== 'string')
      errors.push({ field: 'nature_of_payment', message: 'must be a string' });
    if (b.extra_info !== undefined && !isJsonObject(b.extra_info))
      errors.push({ field: 'extra_info', message: 'must be an object' });
    const notes = isJsonObject(b.extra_info) ? b.extra_info.internal_notes : undefined;
    if (notes !== undefined && typeof notes !== 'string')
      errors.push({ field: 'extra_info.internal_notes', message: 'must be a string' });
    const memo = isJsonObject(b.extra_info) ? b.extra_info.memo : undefined;
    if (memo !== undefined && typeof memo !== 'string')
      errors.push({ field: 'extra_info.memo', message: 'must be a string' });
    // evidence §6 [T1 ExecutePayoutService]: extra_info.memo holds at most 255 characters.
    else if (typeof memo === 'string' && memo.length > MEMO_MAX)
      errors.push({ field: 'extra_info.memo', message: `must be at most ${MEMO_MAX} characters` });
    // `cents === undefined` only alongside an amount error; checking it also narrows its type.
    if (errors.length || cents === undefined) return sendValidation(res, errors);
    const recipient = ctx.store.recipients.get(String(b.recipient_id).toLowerCase());
    if (!recipient || recipient.clientUuid !== va.clientUuid || recipient.user_id !== va.user_id) {
      return sendValidation(res, [
        { field: 'recipient_id', message: 'no such recipient for the user of this virtual account' },
      ]);
    }
    const quoteRefused =
      typeof b.quote_id === 'string' ? quoteRefusal(ctx, va, b.quote_id, recipient, cents) : [];
    if (quoteRefused.length) return sendValidation(res, quoteRefused);
    // evidence §6 [T1 REVISION-DOCS §4]: a WIRE payout from the ACT bank's account needs a memo.
    if (recipient.account_type === 'WIRE' && ACT_BANKS.includes(va.bank) && !memo)
      return sendValidation(res, [
        { field: 'extra_info.memo', message: `is required on WIRE payouts from a ${va.bank} account` },
      ]);
    // Normalised to 2 decimals as the sandbox always answered ("100" → "100.00"; evidence §6:
    // decimal strings), formatted from the exact cents.
    const amount = formatCents(cents);
    // A payout draws on the account's balance (deposits credit it, evidence §5); one beyond it is
    // refused before anything is created. The partner's body for this case is not recorded in the
    // evidence: the contract's standard error shape (docs/partner-api.md §7.1) with a 422. Compared
    // on exact cents: one cent over is refused at any size.
    const available = availableBalanceCents(ctx, va);
    if (cents > available)
      return sendError(
        res,
        422,
        'insufficient_funds',
        `The payout amount ${amount} exceeds the available balance ${formatCents(available)}`,
      );
    // The price: a quote's as previewed; else, with the opt-in fee profile, priced at execution on the
    // same profile (evidence §6: `amount` is gross, fees come out of it); else no fee (the partner
    // sandbox's own profiles are unknown beyond refusing every quote, DRIFT-45).
    const quote = typeof b.quote_id === 'string' ? ctx.store.quotes.get(b.quote_id.toLowerCase()) : undefined;
    const fees = ctx.options.payoutFees;
    const feeCents = quote ? quote.feeCents : fees === 'partner' ? 0n : feeCentsOf(fees, cents);
    // evidence §6 [T3r DRIFT-45]: the partner's words when fees reach the amount, as the preview says.
    if (feeCents >= cents)
      return sendError(res, 400, 'validation_error', 'Total fees exceed or equal the payout amount');
    const payout = buildPayoutRecord(va, recipient, amount, {
      quoteId: b.quote_id as string | undefined,
      memo: memo as string | undefined,
      feeCents,
    });
    const now = payout.created_at;
    ctx.store.payouts.set(payout.payout_id, payout);
    if (quote) quote.usedBy = payout.payout_id;
    ctx.telemetry.created('payouts');
    ctx.webhooks.emit(
      payout.clientUuid,
      buildPayoutProgress('payout.created', {
        payout_id: payout.payout_id,
        user_id: payout.user_id,
        virtual_account_id: payout.virtual_account_id,
        recipient_id: payout.recipient_id,
        amount,
        currency: 'USD',
        created_at: now,
      }),
    );
    res.status(201).json({
      id: payout.payout_id,
      status: 'created',
      amount,
      currency: 'USD',
      recipient_id: payout.recipient_id,
      virtual_account_id: payout.virtual_account_id,
      user_id: payout.user_id,
      created_at: now,
    });
    if (ctx.options.autoPayouts) runPayoutScript(ctx, payout, ctx.options.autoPayouts.stepDelayMs);
  });

  router.get('/v1/payouts/:id', ...auth, (req, res) => {
    const id = String(req.params.id);
    if (!isUuid(id)) return sendRouteNotMatched(res);
    const payout = ctx.store.payouts.get(id.toLowerCase());
    if (!payout) return sendNotFound(res, 'Payout');
    if (payout.clientUuid !== accountOf(res).clientUuid)
      return sendError(res, 403, 'invalid_request', 'This payout belongs to another client');
    res.json(payoutView(ctx, payout));
  });

  /** evidence §6 [T1 ExecutePayoutService]: GET /v1/payouts?user_id&status&from_date&to_date&page&limit (limit ≤ 100; any other parameter → 400) → `{payouts[], page, limit, total, total_pages}`. */
  router.get('/v1/payouts', ...auth, (req, res) => {
    const q = new URLSearchParams(req.originalUrl.split('?')[1] ?? '');
    const unknown = [...q.keys()].filter((k) => !LIST_PARAMS.has(k));
    if (unknown.length)
      return sendValidation(
        res,
        unknown.map((k) => ({ field: k, message: 'unknown query parameter' })),
      );
    const page = Number(q.get('page') ?? 1);
    const limit = Number(q.get('limit') ?? 20);
    if (!Number.isInteger(page) || page < 1)
      return sendValidation(res, [{ field: 'page', message: 'must be an integer ≥ 1' }]);
    if (!Number.isInteger(limit) || limit < 1 || limit > 100)
      return sendValidation(res, [{ field: 'limit', message: 'must be 1 to 100' }]);
    const all = matchingPayouts(ctx.store.payouts, {
      clientUuid: accountOf(res).clientUuid,
      userId: q.get('user_id') || null,
      status: q.get('status')?.toUpperCase() || null,
      fromDate: q.get('from_date') || null,
      toDate: q.get('to_date') || null,
    });
    const payouts = all.slice((page - 1) * limit, page * limit).map((p) => payoutListRow(ctx, p));
    const total = all.length;
    res.json({ payouts, total, page, limit, total_pages: Math.ceil(total / limit) });
  });
}
