import type { Router } from 'express';
import { requireAuth, withVersion } from '../../middleware/auth.middleware';
import { isUuid, newId } from '../../server/ids.util';
import { sendError, sendNotFound, sendZodValidation, type ZodIssue } from '../../server/http-errors.util';
import { requestState, type SandboxContext } from '../../server/sandbox-context.util';
import { findOwnVirtualAccount } from '../virtual-accounts/virtual-accounts.routes';

const AMOUNT_RE = /^[0-9]+(\.[0-9]{1,2})?$/;
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
    if (typeof b.amount !== 'string') type('amount', 'string');
    else if (!AMOUNT_RE.test(b.amount) || Number(b.amount) <= 0)
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
    if (issues.length) return sendZodValidation(res, issues);
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
    const cents = Math.round(Number(b.amount) * 100);
    const fee = Math.round((cents * fees.percent) / 100) + Math.round(Number(fees.fixed) * 100);
    const inverse = b.inverse_calculation === true;
    const gross = inverse ? cents + fee : cents;
    const net = inverse ? cents : cents - fee;
    if (net <= 0)
      return sendError(res, 400, 'validation_error', 'Total fees exceed or equal the payout amount');
    const money = (c: number) => (c / 100).toFixed(2);
    const quoted = b.create_quote === true;
    res.status(200).json({
      amount: money(gross),
      currency: 'USD',
      fees: { total: money(fee), percent: String(fees.percent), fixed: Number(fees.fixed).toFixed(2) },
      recipient_amount: money(net),
      recipient_currency: accountType === 'WALLET' ? 'USDC' : 'USD',
      ...(quoted
        ? { quote_id: newId(), quote_expires_at: new Date(Date.now() + 15 * 60_000).toISOString() }
        : {}),
    });
  });
}
