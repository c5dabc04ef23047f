import type { PayoutStep } from '../../control/control-inputs.types';
import { applyPayoutStep } from './payout-lifecycle.service';
import type { SandboxContext } from '../../server/sandbox-context.util';
import type { PayoutRecord } from '../../server/payout-state.types';

/**
 * Scripted lifecycles chosen by the cents of the amount (option `autoPayouts`), so a demo or a
 * test can reach every outcome without the control API.
 */
export function scriptForAmount(amount: string, rail: PayoutRecord['payment_method']): PayoutStep[] {
  switch (amount.split('.')[1] ?? '00') {
    case '91':
      return [{ status: 'PENDING' }, { status: 'FAILED', errorCode: 'ACCOUNT_CLOSED' }];
    case '92':
      return [
        { status: 'PENDING' },
        { status: 'PROCESSING' },
        { status: 'COMPLETED' },
        { status: 'RETURNED', errorCode: 'R01' },
      ];
    case '93':
      // An ACT cancellation exists on the ACT rail only; elsewhere the payout is stopped before sending.
      return [{ status: 'PENDING' }, { status: rail === 'ACT' ? 'ACT_CANCELLED' : 'CANCELLED' }];
    case '94':
      // spec 6.4.8: the hold's outcome reaches the resource only.
      return [
        { status: 'PENDING' },
        { status: 'KYT_PENDING' },
        { status: 'PROCESSING', events: 'none' },
        { status: 'COMPLETED', events: 'none' },
      ];
    case '95':
      return [{ status: 'PENDING' }, { status: 'IN_REVIEW', reviewReason: 'manual_review' }];
    default:
      return [{ status: 'PENDING' }, { status: 'PROCESSING' }, { status: 'COMPLETED' }];
  }
}

/** Runs the script one step every `stepDelayMs`; stops when the payout was moved elsewhere or reset. */
export function runPayoutScript(ctx: SandboxContext, payout: PayoutRecord, stepDelayMs: number): void {
  const steps = scriptForAmount(payout.from_amount, payout.payment_method);
  const next = (i: number) => {
    if (i >= steps.length) return;
    const timer = setTimeout(() => {
      ctx.timers.delete(timer);
      if (ctx.store.payouts.get(payout.payout_id) !== payout) return;
      try {
        applyPayoutStep(ctx, payout, steps[i]);
        next(i + 1);
      } catch (error) {
        ctx.logger.warn(`payout script stopped for ${payout.payout_id}: ${(error as Error).message}`);
      }
    }, stepDelayMs);
    ctx.timers.add(timer);
  };
  next(0);
}
