import type {
  DepositInput,
  DepositRefund,
  DepositRefundOptions,
  VirtualAccountPatch,
} from './control-inputs.types';
import { statusFromAnyVocabulary } from '../resources/virtual-accounts/virtual-account-status.util';
import {
  buildDepositFundsReceived,
  buildDepositSource,
  buildFlatEvent,
  buildUserLivenessCompleted,
} from '../webhooks/event-builders.util';
import { newId, nowIso, randomHex } from '../server/ids.util';
import { parseAmountCents } from '../server/amounts.util';
import { virtualAccountFor, type SandboxContext } from '../server/sandbox-context.util';
import type { DepositRecord, DepositStatus, LiquidationAddressRecord } from '../server/state.types';

/** A deposit into a virtual account and its event (spec 6.3, 6.4.3: source fields by rail). */
export function simulateDeposit(
  ctx: SandboxContext,
  virtualAccountId: string,
  input: DepositInput = {},
): DepositRecord {
  const va = virtualAccountFor(ctx, virtualAccountId);
  // The balance is summed from deposit amounts on exact cents (amounts.util), so a control deposit
  // takes the partner's amount format too (evidence §6 [T3r DRIFT-41]); stored as given, as before.
  if (input.amount !== undefined && parseAmountCents(input.amount) === undefined)
    throw new Error(`amount must be a decimal string such as "100.00", not ${JSON.stringify(input.amount)}`);
  const rail = input.rail ?? 'WIRE';
  const now = nowIso();
  const deposit: DepositRecord = {
    deposit_id: newId(),
    virtual_account_id: va.virtual_account_id,
    user_id: va.user_id,
    amount: input.amount ?? (input.microdeposit ? '0.12' : '1000.00'),
    currency: input.currency ?? 'USD',
    status: input.status ?? 'COMPLETED',
    microdeposit: input.microdeposit ?? false,
    source: buildDepositSource(rail, {
      ...(input.senderName ? { sender_name: input.senderName } : {}),
      ...(input.source ?? {}),
    }),
    created_at: now,
    updated_at: now,
  };
  ctx.store.deposits.set(deposit.deposit_id, deposit);
  ctx.telemetry.created('deposits');
  ctx.webhooks.emit(
    va.clientUuid,
    buildDepositFundsReceived(
      {
        user_id: deposit.user_id,
        virtual_account_id: deposit.virtual_account_id,
        deposit_id: deposit.deposit_id,
        amount: deposit.amount,
        currency: deposit.currency,
        status: deposit.status,
        created_at: deposit.created_at,
        source: deposit.source,
      },
      deposit.microdeposit,
    ),
  );
  return deposit;
}

/** provider-facts: liquidation address shape. */
export function addLiquidationAddress(
  ctx: SandboxContext,
  virtualAccountId: string,
  input: Record<string, unknown> = {},
): LiquidationAddressRecord {
  const va = virtualAccountFor(ctx, virtualAccountId);
  const now = nowIso();
  const record: LiquidationAddressRecord = {
    id: newId(),
    virtual_account_id: va.virtual_account_id,
    status: 'active',
    network: 'ethereum',
    token: 'USDC',
    address: `0x${randomHex(20)}`,
    recipient: { recipient_id: null },
    wallet: { wallet_id: newId() },
    markup: '0.00',
    created_at: now,
    updated_at: now,
    ...input,
  } as LiquidationAddressRecord;
  ctx.store.liquidationAddresses.set(record.id, record);
  ctx.telemetry.created('liquidation_addresses');
  return record;
}

/**
 * user.liveness_completed (spec 6.4.2): person_reference_id null for an individual, the owner's
 * provider reference (from the liveness-link answer) for a business; default the first link's.
 */
export function completeLiveness(
  ctx: SandboxContext,
  userId: string,
  input: { personReferenceId?: string | null; result?: string } = {},
): void {
  const user = ctx.store.users.get(userId.toLowerCase());
  if (!user) throw new Error(`unknown user ${userId}`);
  const reference =
    user.type === 'individual'
      ? null
      : input.personReferenceId !== undefined
        ? input.personReferenceId
        : (user.livenessReferences.find((r) => r.person_reference_id)?.person_reference_id ?? null);
  if (user.type === 'business' && !reference)
    throw new Error('business user has no liveness link yet: call POST /v1/users/{id}/liveness-link first');
  if (reference && !user.livenessReferences.some((r) => r.person_reference_id === reference)) {
    throw new Error(`person_reference_id ${reference} was not issued by a liveness link of this user`);
  }
  ctx.webhooks.emit(
    user.clientUuid,
    buildUserLivenessCompleted({
      user_id: user.user_id,
      person_reference_id: reference,
      result: input.result ?? 'approved', // evidence §9
    }),
  );
}

/**
 * Changes a virtual account on the resource only (spec 6.3: virtual_account.failed and
 * .deactivated are not emitted). provider-facts: funds are usable only once account_number is
 * non-null and not the placeholder PENDING-ACT-ACCOUNT.
 */
export function updateVirtualAccount(
  ctx: SandboxContext,
  virtualAccountId: string,
  patch: VirtualAccountPatch,
): void {
  const va = virtualAccountFor(ctx, virtualAccountId);
  if (patch.status !== undefined) {
    const status = statusFromAnyVocabulary(patch.status);
    if (!status) throw new Error(`unknown virtual account status ${String(patch.status)}`);
    va.status = status;
  }
  if (patch.account_number !== undefined) va.account_number = patch.account_number;
  va.updated_at = nowIso();
}

/** A deposit's status changes on the resource only: a hold's outcome may not arrive as an event (spec 6.4.8). */
export function setDepositStatus(ctx: SandboxContext, depositId: string, status: DepositStatus): void {
  const deposit = ctx.store.deposits.get(depositId.toLowerCase());
  if (!deposit) throw new Error(`unknown deposit ${depositId}`);
  const allowed: DepositStatus[] = [
    'PENDING',
    'COMPLETED',
    'FAILED',
    'REFUNDED',
    'KYT_PENDING',
    'KYT_REJECTED',
  ];
  if (!allowed.includes(status)) throw new Error(`unknown deposit status ${String(status)}`);
  deposit.status = status;
  deposit.updated_at = nowIso();
}

/** evidence §9 [T1 REVISION-DOCS §1]: a newer event, not in the contract's 2026-04-14 list (spec 6.3). */
export const DEPOSIT_REFUNDED_EVENT = 'virtual_account.deposit_funds_refunded';

/**
 * The partner's bank refunds a deposit after it settled (an ACH return after COMPLETED): the
 * resource moves to REFUNDED (final, evidence §5 [T1 REVISION-DOCS §2.1]), so the balance, derived
 * from COMPLETED deposits, drops by its amount. No webhook by default: the contract's event list
 * (spec 6.3) has no refund event, so only a read of the deposit learns it (spec 6.4.8). With
 * `event: true`, `virtual_account.deposit_funds_refunded` (no `status`, `return_details{code,
 * reason, refunded_at}`, evidence §9) is sent too. Refused unless the deposit is COMPLETED.
 */
export function refundDeposit(
  ctx: SandboxContext,
  depositId: string,
  options: DepositRefundOptions = {},
): DepositRefund {
  const deposit = ctx.store.deposits.get(depositId.toLowerCase());
  if (!deposit) throw new Error(`unknown deposit ${depositId}`);
  if (deposit.status !== 'COMPLETED')
    throw new Error(
      `deposit ${depositId} is ${deposit.status}; only a COMPLETED deposit can be refunded after settlement`,
    );
  const va = virtualAccountFor(ctx, deposit.virtual_account_id);
  const refundedAt = nowIso();
  deposit.status = 'REFUNDED';
  deposit.updated_at = refundedAt;
  if (!options.event) return { status: 'REFUNDED', refundedAt, eventId: null };
  const eventId = ctx.webhooks.emit(
    va.clientUuid,
    buildFlatEvent(DEPOSIT_REFUNDED_EVENT, {
      user_id: deposit.user_id,
      virtual_account_id: deposit.virtual_account_id,
      deposit_id: deposit.deposit_id,
      amount: deposit.amount,
      currency: deposit.currency,
      return_details: {
        code: options.code ?? 'R01',
        reason: options.reason ?? 'Insufficient funds',
        refunded_at: refundedAt,
      },
    }),
  );
  return { status: 'REFUNDED', refundedAt, eventId };
}
