import type {
  ActiveFault,
  CreateClientInput,
  DeliveryRecord,
  DepositInput,
  DepositRefund,
  DepositRefundOptions,
  EmitOptions,
  FaultSpec,
  PayoutStep,
  PayoutStepName,
  PayoutView,
  RequestLogEntry,
  RotateWebhookSecretOptions,
  SandboxClientInfo,
  SandboxControl,
  SandboxCounters,
  SeedPayoutsInput,
  SeedRfiInput,
  SeededRfi,
  VirtualAccountPatch,
  WebhookSecretRotation,
} from './control.types';
import { checkSecretOverlapMs } from '../webhooks/webhook-sender.service';
import { buildFlatEvent, type JsonObject } from '../webhooks/event-builders.util';
import { newId, nowIso, randomHex } from '../server/ids.util';
import { parseAmountCents } from '../server/amounts.util';
import { applyPayoutStep, normaliseSteps, toPayoutView } from '../resources/payouts/payout-lifecycle.service';
import { seedPayouts } from '../resources/payouts/payout-seed.service';
import { emitRfiClosed } from '../resources/rfis/rfi-lookup.util';
import { refreshRfiStatus, rfiItemView, seedRfi } from '../resources/rfis/rfi-seed.service';
import { virtualAccountFor, type SandboxContext } from '../server/sandbox-context.util';
import {
  addLiquidationAddress,
  completeLiveness,
  refundDeposit,
  setDepositStatus,
  simulateDeposit,
  updateVirtualAccount,
} from './scenario.service';
import type {
  AnswerType,
  ClientVault,
  DepositStatus,
  ClientWallet,
  RfiItemRecord,
  RfiStatus,
  UserStatus,
  VerificationOutcome,
} from '../server/state.types';
import { applyVerificationOutcome } from '../resources/users/users-verification.service';
import { provisionVirtualAccount } from '../resources/virtual-accounts/virtual-account-status.util';

const clone = <T>(value: T): T => JSON.parse(JSON.stringify(value)) as T;

/** The in-process implementation of every control operation (also served over HTTP by control.routes.ts). */
export class InProcessControl implements SandboxControl {
  constructor(private readonly ctx: SandboxContext) {}

  private account(clientUuid?: string) {
    return this.ctx.store.account(clientUuid?.toLowerCase());
  }

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

  async seedRfi(input: SeedRfiInput): Promise<SeededRfi> {
    const rfi = seedRfi(this.ctx, input);
    const itemIdsByType: Partial<Record<AnswerType, string>> = {};
    for (const item of rfi.items) itemIdsByType[item.answer_type] ??= item.item_id;
    return {
      rfiId: rfi.rfi_id,
      userId: rfi.user_id,
      itemIds: rfi.items.map((i) => i.item_id),
      itemIdsByType,
      items: clone(rfi.items.map((i) => rfiItemView(this.ctx, rfi, i))),
    };
  }

  private rfi(rfiId: string) {
    const rfi = this.ctx.store.rfis.get(rfiId.toLowerCase());
    if (!rfi) throw new Error(`unknown rfi ${rfiId}`);
    return rfi;
  }

  /** Sends an item back: returned_at and review_note set, status pending again (sandbox choice; spec 3.1 leaves it open). */
  async returnRfiItem(rfiId: string, itemId: string, reviewNote: string): Promise<RfiItemRecord> {
    const rfi = this.rfi(rfiId);
    const item = rfi.items.find((i) => i.item_id === itemId.toLowerCase());
    if (!item) throw new Error(`item ${itemId} is not in rfi ${rfiId}`);
    item.returned_at = nowIso();
    item.review_note = reviewNote;
    item.status = 'pending';
    refreshRfiStatus(rfi);
    return clone(rfiItemView(this.ctx, rfi, item));
  }

  async setRfiStatus(
    rfiId: string,
    status: RfiStatus,
    resolutionReason?: 'expired' | 'rejected',
  ): Promise<void> {
    const allowed: RfiStatus[] = ['pending', 'answered', 'resolved', 'not_resolved', 'withdrawn'];
    if (!allowed.includes(status)) throw new Error(`unknown rfi status ${String(status)}`);
    if (resolutionReason !== undefined && !['expired', 'rejected'].includes(resolutionReason))
      throw new Error(`unknown resolution_reason ${String(resolutionReason)}; use expired or rejected`);
    const rfi = this.rfi(rfiId);
    rfi.status = status;
    rfi.updated_at = nowIso();
    // evidence §7: `expired` (the due date passed, never extended) or `rejected`; T1 also stores `withdrawn`.
    rfi.resolution_reason =
      status === 'not_resolved'
        ? (resolutionReason ?? 'expired')
        : status === 'withdrawn'
          ? 'withdrawn'
          : null;
    if (status === 'resolved' || status === 'not_resolved') emitRfiClosed(this.ctx, rfi, status);
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

  async emitEvent(
    event: string,
    data: Record<string, unknown> = {},
    options: EmitOptions = {},
  ): Promise<{ eventId: string }> {
    const clientUuid = this.account(options.clientUuid).clientUuid;
    // payout.status_changed with an inner `data` object is sent in the V2 envelope (spec 6.2).
    const body =
      event === 'payout.status_changed' && typeof data.data === 'object' && data.data !== null
        ? { event, data: { event_id: newId(), event_type: event, created_at: nowIso(), ...data } }
        : buildFlatEvent(event, data as JsonObject);
    const eventId = this.ctx.webhooks.emit(clientUuid, body, {
      signWithPreviousSecret: options.signWithPreviousSecret,
    });
    return { eventId };
  }

  async sendUnknownEvent(event = 'sandbox.unknown_event', clientUuid?: string): Promise<{ eventId: string }> {
    return this.emitEvent(
      event,
      { note: 'an event type this receiver does not know (spec 6.1.5)' },
      { clientUuid },
    );
  }

  async sendDuplicate(eventId?: string): Promise<void> {
    this.ctx.webhooks.duplicate(eventId);
  }

  async reorderNext(count: number, clientUuid?: string): Promise<void> {
    this.ctx.webhooks.reorderNext(this.account(clientUuid).clientUuid, count);
  }

  async dropNextWebhooks(count = 1, event?: string, clientUuid?: string): Promise<void> {
    this.ctx.webhooks.dropNext(this.account(clientUuid).clientUuid, count, event);
  }

  async signNextWithPreviousSecret(count = 1, clientUuid?: string): Promise<void> {
    this.ctx.webhooks.signNextWithPreviousSecret(this.account(clientUuid).clientUuid, count);
  }

  async addFault(fault: FaultSpec): Promise<{ id: string }> {
    return { id: this.ctx.faults.add(fault).id };
  }

  async clearFaults(): Promise<void> {
    this.ctx.faults.clear();
  }

  async faults(): Promise<ActiveFault[]> {
    return this.ctx.faults.list();
  }

  async expireTokensNow(): Promise<void> {
    this.ctx.store.expireAllTokens();
  }

  async counters(): Promise<SandboxCounters> {
    return clone(this.ctx.telemetry.counters);
  }

  async requestLog(): Promise<RequestLogEntry[]> {
    return clone(this.ctx.telemetry.requestLog);
  }

  async deliveries(): Promise<DeliveryRecord[]> {
    return clone(this.ctx.webhooks.deliveries);
  }

  async waitForDeliveries(
    input: { count?: number; event?: string; timeoutMs?: number } = {},
  ): Promise<DeliveryRecord[]> {
    return clone(await this.ctx.webhooks.waitFor(input.count ?? 1, input.event, input.timeoutMs ?? 5000));
  }

  async flushWebhooks(): Promise<void> {
    await this.ctx.webhooks.idle();
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
