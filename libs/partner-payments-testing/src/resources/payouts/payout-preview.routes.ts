import type { Router } from 'express';
import { requireAuth, withVersion } from '../../middleware/auth.middleware';
import { isUuid, newId } from '../../server/ids.util';
import { sendError, sendNotFound, sendZodValidation, type ZodIssue } from '../../server/http-errors.util';
import { requestState, type SandboxContext } from '../../server/sandbox-context.util';
import type { VirtualAccountRecord } from '../../server/state.types';
import type { QuoteRecord } from '../../server/payout-state.types';
import { findOwnVirtualAccount } from '../virtual-accounts/virtual-accounts.routes';
import {
  amountCents,
  formatCents,
  normaliseAmount,
  parseAmountCents,
  parsePercent,
  percentOfCents,
} from '../../server/amounts.util';

type PayoutFees = 'partner' | { percent: number; fixed: string };

/**
 * Checks the opt-in fee profile at start, so a preview never computes on a malformed one: `percent`
 * a non-negative decimal number (no exponent form), `fixed` an amount string (evidence §6 [T3r
 * DRIFT-41]). Answers it unchanged; 'partner' passes as it is.
 */
export function checkPayoutFees(fees: PayoutFees): PayoutFees {
  if (fees === 'partner') return fees;
  const { percent, fixed } = fees;
  if (typeof percent !== 'number' || !Number.isFinite(percent))
    throw new Error('payoutFees.percent must be a finite number such as 2.5');
  try {
    parsePercent(percent);
  } catch {
    throw new Error(`payoutFees.percent must be a non-negative decimal such as 2.5, not ${percent}`);
  }
  if (parseAmountCents(fixed) === undefined)
    throw new Error(
      `payoutFees.fixed must be a decimal amount string such as "0.50", not ${JSON.stringify(fixed)}`,
    );
  return fees;
}

/**
 * The account types a preview names without a recipient: the US and wallet rails the evidence
 * shows payouts on (§6 payment_method: wire, swift, wallet, ach, instant_pay, spei). Not the LATAM
 * recipient types: nothing shows a preview of one, and most of them cannot even be created.
 */
const ACCOUNT_TYPES = ['WIRE', 'ACH', 'SWIFT', 'SPEI', 'INSTANT_PAY', 'WALLET'];

/**
 * POST /v1/virtual-accounts/{id}/payout/preview (evidence §6 [T1 ExecutePayoutService][T2
 * Payouts.cs]): creates nothing, takes no Idempotency-Key. Body `amount` (decimal string),
 * `recipient_id` or `account_type`, `inverse_calculation`, `client_markup` (object), `create_quote`;
 * a field sent as null is a type error (DRIFT-41..43), answered in the Zod shape. By default the
 * answer is the partner sandbox's: no fee profile works (DRIFT-45, 46).
 */
export function registerPayoutPreviewRoutes(router: Router, ctx: SandboxContext): void {
  router.post('/v1/virtual-accounts/:id/payout/preview', withVersion(ctx), requireAuth(ctx), (req, res) => {
    const va = findOwnVirtualAccount(ctx, res, String(req.params.id));
    if (!va) return;
    const b = requestState(res).body as Record<string, unknown> | undefined;
    if (typeof b !== 'object' || b === null || Array.isArray(b))
      return sendZodValidation(res, [{ path: '', message: 'Expected object', code: 'invalid_type' }]);
    const issues: ZodIssue[] = [];
    const type = (path: string, expected: string) =>
      issues.push({
        path,
        message: `Expected ${expected}, received ${b[path] === null ? 'null' : typeof b[path]}`,
        code: 'invalid_type',
      });
    // evidence §6 [T3r DRIFT-41]: the amount pattern, read into exact cents (amounts.util).
    const cents = parseAmountCents(b.amount);
    if (typeof b.amount !== 'string') type('amount', 'string');
    else if (cents === undefined || cents <= 0n)
      issues.push({
        path: 'amount',
        message: 'Invalid amount: a positive decimal string with up to 2 decimals',
        code: 'invalid_string',
      });
    if (b.recipient_id !== undefined && !isUuid(b.recipient_id))
      issues.push({ path: 'recipient_id', message: 'Invalid uuid', code: 'invalid_string' });
    if (b.account_type !== undefined && !ACCOUNT_TYPES.includes(String(b.account_type)))
      issues.push({
        path: 'account_type',
        message: `Invalid enum value. Expected ${ACCOUNT_TYPES.join(' | ')}`,
        code: 'invalid_enum_value',
      });
    if (b.recipient_id === undefined && b.account_type === undefined)
      issues.push({
        path: 'recipient_id',
        message: 'recipient_id or account_type is required',
        code: 'custom',
      });
    if (b.inverse_calculation !== undefined && typeof b.inverse_calculation !== 'boolean')
      type('inverse_calculation', 'boolean');
    if (b.create_quote !== undefined && typeof b.create_quote !== 'boolean') type('create_quote', 'boolean');
    if (
      b.client_markup !== undefined &&
      (typeof b.client_markup !== 'object' || b.client_markup === null || Array.isArray(b.client_markup))
    )
      type('client_markup', 'object');
    // `cents === undefined` only alongside an amount issue; checking it also narrows its type.
    if (issues.length || cents === undefined) return sendZodValidation(res, issues);
    let accountType = b.account_type as string | undefined;
    if (b.recipient_id !== undefined) {
      const recipient = ctx.store.recipients.get(String(b.recipient_id).toLowerCase());
      if (!recipient || recipient.clientUuid !== va.clientUuid || recipient.user_id !== va.user_id)
        return sendNotFound(res, 'Recipient');
      accountType = recipient.account_type;
    }
    const fees = ctx.options.payoutFees;
    if (fees === 'partner') {
      // evidence §6 [T3r DRIFT-45, 46]: the partner sandbox's own answers. Their status is not recorded: 400.
      if (accountType === 'WALLET')
        return sendError(
          res,
          400,
          'validation_error',
          'No fee profile configured for product usa-va-fiat-to-crypto-payout',
        );
      return sendError(res, 400, 'validation_error', 'Total fees exceed or equal the payout amount');
    }
    // The opt-in fee profile on exact BigInt cents (amounts.util): the percent part rounded half-up
    // to a whole cent once (the partner's rounding is not recorded in the evidence), the fixed part
    // added as is. As before, the fee is taken of the amount sent, in both directions.
    const fee = feeCentsOf(fees, cents);
    const inverse = b.inverse_calculation === true;
    const gross = inverse ? cents + fee : cents;
    const net = inverse ? cents : cents - fee;
    // evidence §6 [T3r DRIFT-45]: the partner's words when fees reach the amount, decided exactly.
    if (net <= 0n)
      return sendError(res, 400, 'validation_error', 'Total fees exceed or equal the payout amount');
    const quote =
      b.create_quote === true
        ? storeQuote(ctx, va, b, accountType as string, { grossCents: gross, feeCents: fee, netCents: net })
        : undefined;
    res.status(200).json({
      amount: formatCents(gross),
      currency: 'USD',
      fees: { total: formatCents(fee), percent: String(fees.percent), fixed: normaliseAmount(fees.fixed) },
      recipient_amount: formatCents(net),
      recipient_currency: accountType === 'WALLET' ? 'USDC' : 'USD',
      ...(quote
        ? { quote_id: quote.quote_id, quote_expires_at: new Date(quote.expiresAt).toISOString() }
        : {}),
    });
  });
}

/**
 * evidence §6 [T2 Payouts.cs]: a quote lasts 10 or 15 minutes depending on the page, so read
 * `quote_expires_at`; the sandbox gives the shorter, so an app that assumes 15 fails here first.
 */
export const QUOTE_TTL_MS = 10 * 60_000;
/**
 * The opt-in fee profile's fee on an amount, in exact cents: the percent part rounded half-up to a
 * whole cent once (the partner's rounding is not recorded in the evidence), the fixed part added.
 * The preview and a payout priced at execution use the same one.
 */
export function feeCentsOf(fees: { percent: number; fixed: string }, cents: bigint): bigint {
  return percentOfCents(cents, fees.percent) + amountCents(fees.fixed);
}

/** Checked at start: a quote's life is a whole positive number of milliseconds. */
export function checkQuoteTtlMs(ms: number): number {
  if (!Number.isSafeInteger(ms) || ms <= 0)
    throw new Error(`quoteTtlMs must be a positive whole number of milliseconds, not ${String(ms)}`);
  return ms;
}

/** Past this many quotes kept, each new one first drops the expired ones (a long run previews without end). */
const QUOTES_KEPT = 10_000;

/** Keeps what an execute naming this quote must match (payouts.routes quoteRefusal). */
function storeQuote(
  ctx: SandboxContext,
  va: VirtualAccountRecord,
  b: Record<string, unknown>,
  accountType: string,
  price: Pick<QuoteRecord, 'grossCents' | 'feeCents' | 'netCents'>,
): QuoteRecord {
  const now = Date.now();
  if (ctx.store.quotes.size >= QUOTES_KEPT)
    for (const [id, q] of ctx.store.quotes) if (q.expiresAt <= now) ctx.store.quotes.delete(id);
  const quote: QuoteRecord = {
    quote_id: newId(),
    clientUuid: va.clientUuid,
    virtual_account_id: va.virtual_account_id,
    recipient_id: b.recipient_id === undefined ? null : String(b.recipient_id).toLowerCase(),
    account_type: accountType,
    ...price,
    expiresAt: now + ctx.options.quoteTtlMs,
    usedBy: null,
  };
  ctx.store.quotes.set(quote.quote_id, quote);
  return quote;
}
