import type { SandboxControl } from './control.types';
import type {
  CreateClientInput,
  DepositInput,
  DepositRefund,
  DepositRefundOptions,
  PayoutStep,
  PayoutStepName,
  PayoutView,
  RotateWebhookSecretOptions,
  SandboxClientInfo,
  SeedPayoutsInput,
  VirtualAccountPatch,
  WebhookSecretRotation,
} from './control-inputs.types';
import { checkSecretOverlapMs } from '../webhooks/webhook-sender.service';
import { clone } from './delivery-control.service';
import { InProcessRfiControl } from './rfi-control.service';
import { newId, nowIso, randomHex } from '../server/ids.util';
import { parseAmountCents } from '../server/amounts.util';
import { applyPayoutStep, normaliseSteps, toPayoutView } from '../resources/payouts/payout-lifecycle.service';
import { seedPayouts } from '../resources/payouts/payout-seed.service';
import { virtualAccountFor } from '../server/sandbox-context.util';
import {
  addLiquidationAddress,
  completeLiveness,
  refundDeposit,
  setDepositStatus,
  simulateDeposit,
  updateVirtualAccount,
} from './scenario.service';
import type {
  ClientVault,
  DepositStatus,
  ClientWallet,
  UserStatus,
  VerificationOutcome,
} from '../server/state.types';
import { applyVerificationOutcome } from '../resources/users/users-verification.service';
import { provisionVirtualAccount } from '../resources/virtual-accounts/virtual-account-status.util';

/** The in-process implementation of every control operation (also served over HTTP by control.routes.ts). */
export class InProcessControl extends InProcessRfiControl implements SandboxControl {
  async createClient(input: CreateClientInput = {}): Promise<SandboxClientInfo> {
    const a = this.ctx.store.createAccount(input);
    return {
      apiKey: a.apiKey,
      clientId: a.clientId,
      password: a.password,
      clientUuid: a.clientUuid,
      webhookSecret: a.webhookSecret,
    };
  }

  async setWebhookUrl(url: string | null, clientUuid?: string): Promise<void> {
    if (url !== null) new URL(url);
    this.account(clientUuid).webhookUrl = url ?? undefined;
  }

  async webhookUrl(clientUuid?: string): Promise<string | null> {
    return this.account(clientUuid).webhookUrl ?? null;
  }

  async rotateWebhookSecret(
    newSecret?: string,
    clientUuid?: string,
    options: RotateWebhookSecretOptions = {},
  ): Promise<WebhookSecretRotation> {
    // An empty key signs what anyone can sign; no receiver (ours or the module's) accepts one.
    if (newSecret != null && (typeof newSecret !== 'string' || newSecret.length === 0))
      throw new Error('rotateWebhookSecret: the new secret must be a non-empty string');
    // evidence §9 [T1 REVISION-DOCS §2.4]: the old secret keeps signing for about a minute, so an
    // app configured with the new secret alone loses those deliveries (never retried, spec 6.1.4).
    const overlapMs =
      options?.overlapMs == null
        ? this.ctx.options.webhookSecretOverlapMs
        : checkSecretOverlapMs(options.overlapMs, 'rotateWebhookSecret: overlapMs');
    const a = this.account(clientUuid);
    a.previousWebhookSecret = a.webhookSecret;
    a.webhookSecret = newSecret ?? `whsec_${randomHex(16)}`;
    const until = Date.now() + overlapMs;
    this.ctx.webhooks.startPreviousSecretWindow(a.clientUuid, until);
    return {
      secret: a.webhookSecret,
      previousSecret: a.previousWebhookSecret,
      previousSecretSignsUntil: new Date(until).toISOString(),
    };
  }

  async setAuthorizedBanks(banks: string[], clientUuid?: string): Promise<void> {
    this.account(clientUuid).authorizedBanks = [...banks];
  }

  async provisionClientWallet(
    wallet: Partial<ClientWallet> = {},
    clientUuid?: string,
  ): Promise<ClientWallet> {
    const a = this.account(clientUuid);
    const address = wallet.address ?? `0x${randomHex(20)}`;
    a.wallet = {
      client_uuid: a.clientUuid,
      object: 'wallet',
      address,
      explorer_url: `https://etherscan.io/address/${address}`,
      name: 'Sandbox custodial wallet',
      network__id: 'ethereum',
      ...wallet,
    };
    a.updatedAt = nowIso();
    return clone(a.wallet);
  }

  async provisionClientVault(vault: Partial<ClientVault> = {}, clientUuid?: string): Promise<ClientVault> {
    const a = this.account(clientUuid);
    a.vault = { vault_id: newId(), object: 'vault', name: 'Sandbox vault', type: 'custodial', ...vault };
    a.updatedAt = nowIso();
    return clone(a.vault);
  }

  async setNextVerificationOutcome(outcome: VerificationOutcome | null): Promise<void> {
    if (outcome !== null && !['approved', 'declined', 'provider_outage', 'session_expired'].includes(outcome))
      throw new Error(`unknown verification outcome ${String(outcome)}`);
    this.ctx.store.nextVerificationOutcome = outcome;
  }

  async setUserVerificationOutcome(
    userId: string,
    outcome: VerificationOutcome,
    options: { reasons?: string[] } = {},
  ): Promise<UserStatus> {
    const user = this.ctx.store.users.get(userId.toLowerCase());
    if (!user) throw new Error(`unknown user ${userId}`);
    return applyVerificationOutcome(this.ctx, user, outcome, options.reasons);
  }

  async completeLiveness(
    userId: string,
    input?: { personReferenceId?: string | null; result?: string },
  ): Promise<void> {
    completeLiveness(this.ctx, userId, input);
  }

  async simulateDeposit(virtualAccountId: string, input?: DepositInput): Promise<{ depositId: string }> {
    return { depositId: simulateDeposit(this.ctx, virtualAccountId, input).deposit_id };
  }

  async provisionVirtualAccount(
    virtualAccountId: string,
    outcome?: 'active' | 'failed',
  ): Promise<{ status: string; accountNumberLast4: string | null }> {
    const va = provisionVirtualAccount(this.ctx, virtualAccountId, outcome);
    return { status: va.status, accountNumberLast4: va.account_number?.slice(-4) ?? null };
  }

  async fundVirtualAccount(virtualAccountId: string, amount = '10000.00'): Promise<{ depositId: string }> {
    const va = virtualAccountFor(this.ctx, virtualAccountId);
    // Refused before the account is opened, so a malformed amount changes nothing (amounts.util).
    if (parseAmountCents(amount) === undefined)
      throw new Error(`amount must be a decimal string such as "100.00", not ${JSON.stringify(amount)}`);
    if (va.status === 'pending' || va.status === 'activating')
      provisionVirtualAccount(this.ctx, virtualAccountId);
    return { depositId: simulateDeposit(this.ctx, virtualAccountId, { amount }).deposit_id };
  }

  async updateVirtualAccount(virtualAccountId: string, patch: VirtualAccountPatch): Promise<void> {
    updateVirtualAccount(this.ctx, virtualAccountId, patch);
  }

  async setDepositStatus(depositId: string, status: DepositStatus): Promise<void> {
    setDepositStatus(this.ctx, depositId, status);
  }

  async refundDeposit(depositId: string, options?: DepositRefundOptions): Promise<DepositRefund> {
    return refundDeposit(this.ctx, depositId, options);
  }

  async addLiquidationAddress(
    virtualAccountId: string,
    input?: Record<string, unknown>,
  ): Promise<{ id: string }> {
    return { id: addLiquidationAddress(this.ctx, virtualAccountId, input).id };
  }

  async advancePayout(
    payoutId: string,
    steps: PayoutStepName | PayoutStep | (PayoutStepName | PayoutStep)[],
  ): Promise<PayoutView> {
    const payout = this.ctx.store.payouts.get(payoutId.toLowerCase());
    if (!payout) throw new Error(`unknown payout ${payoutId}`);
    for (const step of normaliseSteps(steps)) applyPayoutStep(this.ctx, payout, step);
    return toPayoutView(payout);
  }

  async seedPayouts(input: SeedPayoutsInput): Promise<{ payoutIds: string[] }> {
    return { payoutIds: seedPayouts(this.ctx, input) };
  }

  async reset(): Promise<void> {
    for (const timer of this.ctx.timers) clearTimeout(timer);
    this.ctx.timers.clear();
    await this.ctx.webhooks.idle();
    this.ctx.store.resetResources();
    this.ctx.idempotency.clear();
    this.ctx.telemetry.reset();
    this.ctx.faults.clear();
    this.ctx.webhooks.reset();
  }
}
