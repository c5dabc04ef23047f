/**
 * Why the sandbox refuses a payout's funds or quote, before anything is written: the virtual
 * account's state and held deposits (evidence §5) and the quote an execute names (evidence §6).
 */
import type { FieldError } from '../metadata.rules';
import type { SandboxContext } from '../../server/sandbox-context.util';
import type { RecipientRecord, VirtualAccountRecord } from '../../server/state.types';
import { isProvisioned } from '../virtual-accounts/virtual-account-status.util';
import { formatCents } from '../../server/amounts.util';

/** Why funds of this virtual account cannot be paid out yet, or undefined when they can. */
export function virtualAccountUnusable(va: VirtualAccountRecord): string | undefined {
  // evidence §5: failed and deactivated accounts hold no usable funds; frozen blocks payouts.
  if (va.status === 'failed' || va.status === 'deactivated' || va.status === 'frozen')
    return `The virtual account is ${va.status}; its funds cannot be paid out`;
  if (!isProvisioned(va)) return 'The virtual account has no account number yet; its funds are not usable';
  return undefined;
}

/**
 * evidence §5 [T1 REVISION-DOCS §2.1]: a held deposit blocks every payout from its account. Held:
 * KYT_PENDING, and KYT_REJECTED, which is not final (it can still be released to COMPLETED). The
 * partner's status and body for this refusal are not recorded: the same 422 as unusable funds.
 */
export function heldDepositRefusal(ctx: SandboxContext, va: VirtualAccountRecord): string | undefined {
  for (const d of ctx.store.deposits.values())
    if (
      d.virtual_account_id === va.virtual_account_id &&
      (d.status === 'KYT_PENDING' || d.status === 'KYT_REJECTED')
    )
      return `Deposit ${d.deposit_id} is on hold (${d.status}); payouts from this virtual account are blocked until it is released`;
  return undefined;
}

/**
 * Why an execute may not use this quote, as field errors (none when it may). A quote prices one
 * payout of one amount from one account to what the preview named (evidence §6: preview with
 * `create_quote`, then execute with its `quote_id`). The partner's answers to a wrong quote are not
 * recorded; the sandbox refuses each case with the contract's 400 naming the field, so an app that
 * re-uses, outlives or edits a quote fails here rather than at the partner.
 */
export function quoteRefusal(
  ctx: SandboxContext,
  va: VirtualAccountRecord,
  quoteId: string,
  recipient: RecipientRecord,
  cents: bigint,
): FieldError[] {
  const quote = ctx.store.quotes.get(quoteId.toLowerCase());
  if (!quote || quote.clientUuid !== va.clientUuid || quote.virtual_account_id !== va.virtual_account_id)
    return [
      {
        field: 'quote_id',
        message: 'no such quote for this virtual account (a preview with create_quote makes one)',
      },
    ];
  if (quote.usedBy) return [{ field: 'quote_id', message: `was already used by payout ${quote.usedBy}` }];
  if (quote.expiresAt <= Date.now())
    return [
      {
        field: 'quote_id',
        message: `expired at ${new Date(quote.expiresAt).toISOString()}; preview again for a new quote`,
      },
    ];
  const errors: FieldError[] = [];
  if (cents !== quote.grossCents)
    errors.push({ field: 'amount', message: `must be the quoted amount ${formatCents(quote.grossCents)}` });
  if (quote.recipient_id !== null && quote.recipient_id !== recipient.recipient_id)
    errors.push({ field: 'recipient_id', message: 'must be the recipient the quote was made for' });
  else if (quote.recipient_id === null && recipient.account_type !== quote.account_type)
    errors.push({
      field: 'recipient_id',
      message: `must be a ${quote.account_type} recipient, the account type quoted`,
    });
  return errors;
}
