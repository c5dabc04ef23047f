import type { ControlOperation } from './control.constants';
import type {
  ActiveFault,
  DeliveryRecord,
  FaultSpec,
  RequestLogEntry,
  SandboxControl,
  SandboxCounters,
} from './control.types';
import type {
  CreateClientInput,
  DepositInput,
  DepositRefund,
  DepositRefundOptions,
  EmitOptions,
  PayoutStep,
  PayoutStepName,
  PayoutView,
  RotateWebhookSecretOptions,
  SandboxClientInfo,
  SeedPayoutsInput,
  SeedRfiInput,
  SeededRfi,
  VirtualAccountPatch,
  WebhookSecretRotation,
} from './control-inputs.types';
import type {
  ClientVault,
  ClientWallet,
  DepositStatus,
  UserStatus,
  VerificationOutcome,
} from '../server/state.types';
import type { RfiItemRecord, RfiStatus } from '../server/rfi-state.types';

/**
 * The control API of a sandbox running as a separate process (`npm run sandbox`), over HTTP.
 * `new PartnerSandboxControlClient('http://127.0.0.1:4010')` (the root base URL, or the /__control URL).
 */
export class PartnerSandboxControlClient implements SandboxControl {
  private readonly controlUrl: string;

  constructor(baseUrl: string) {
    const trimmed = baseUrl.replace(/\/+$/, '').replace(/\/sandbox$/, '');
    this.controlUrl = trimmed.endsWith('/__control') ? trimmed : `${trimmed}/__control`;
  }

  private async call<T>(op: ControlOperation, ...args: unknown[]): Promise<T> {
    while (args.length > 0 && args[args.length - 1] === undefined) args.pop();
    const response = await fetch(`${this.controlUrl}/${op}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ args: args.map((a) => (a === undefined ? null : a)) }),
    });
    const body = (await response.json()) as { result?: T; error?: string };
    if (!response.ok) throw new Error(`sandbox control ${op} failed: ${body.error ?? response.status}`);
    return body.result as T;
  }

  createClient = (input?: CreateClientInput) => this.call<SandboxClientInfo>('createClient', input);
  setWebhookUrl = (url: string | null, clientUuid?: string) =>
    this.call<void>('setWebhookUrl', url, clientUuid);
  webhookUrl = (clientUuid?: string) => this.call<string | null>('webhookUrl', clientUuid);
  rotateWebhookSecret = (newSecret?: string, clientUuid?: string, options?: RotateWebhookSecretOptions) =>
    this.call<WebhookSecretRotation>('rotateWebhookSecret', newSecret, clientUuid, options);
  setAuthorizedBanks = (banks: string[], clientUuid?: string) =>
    this.call<void>('setAuthorizedBanks', banks, clientUuid);
  provisionClientWallet = (wallet?: Partial<ClientWallet>, clientUuid?: string) =>
    this.call<ClientWallet>('provisionClientWallet', wallet, clientUuid);
  provisionClientVault = (vault?: Partial<ClientVault>, clientUuid?: string) =>
    this.call<ClientVault>('provisionClientVault', vault, clientUuid);
  setNextVerificationOutcome = (outcome: VerificationOutcome | null) =>
    this.call<void>('setNextVerificationOutcome', outcome);
  setUserVerificationOutcome = (
    userId: string,
    outcome: VerificationOutcome,
    options?: { reasons?: string[] },
  ) => this.call<UserStatus>('setUserVerificationOutcome', userId, outcome, options);
  completeLiveness = (userId: string, input?: { personReferenceId?: string | null; result?: string }) =>
    this.call<void>('completeLiveness', userId, input);
  simulateDeposit = (virtualAccountId: string, input?: DepositInput) =>
    this.call<{ depositId: string }>('simulateDeposit', virtualAccountId, input);
  addLiquidationAddress = (virtualAccountId: string, input?: Record<string, unknown>) =>
    this.call<{ id: string }>('addLiquidationAddress', virtualAccountId, input);
  dropNextWebhooks = (count?: number, event?: string, clientUuid?: string) =>
    this.call<void>('dropNextWebhooks', count, event, clientUuid);
  provisionVirtualAccount = (virtualAccountId: string, outcome?: 'active' | 'failed') =>
    this.call<{ status: string; accountNumberLast4: string | null }>(
      'provisionVirtualAccount',
      virtualAccountId,
      outcome,
    );
  fundVirtualAccount = (virtualAccountId: string, amount?: string) =>
    this.call<{ depositId: string }>('fundVirtualAccount', virtualAccountId, amount);
  updateVirtualAccount = (virtualAccountId: string, patch: VirtualAccountPatch) =>
    this.call<void>('updateVirtualAccount', virtualAccountId, patch);
  setDepositStatus = (depositId: string, status: DepositStatus) =>
    this.call<void>('setDepositStatus', depositId, status);
  refundDeposit = (depositId: string, options?: DepositRefundOptions) =>
    this.call<DepositRefund>('refundDeposit', depositId, options);
  seedRfi = (input: SeedRfiInput) => this.call<SeededRfi>('seedRfi', input);
  returnRfiItem = (rfiId: string, itemId: string, reviewNote: string) =>
    this.call<RfiItemRecord>('returnRfiItem', rfiId, itemId, reviewNote);
  setRfiStatus = (rfiId: string, status: RfiStatus, resolutionReason?: 'expired' | 'rejected') =>
    this.call<void>('setRfiStatus', rfiId, status, resolutionReason);
  advancePayout = (payoutId: string, steps: PayoutStepName | PayoutStep | (PayoutStepName | PayoutStep)[]) =>
    this.call<PayoutView>('advancePayout', payoutId, steps);
  seedPayouts = (input: SeedPayoutsInput) => this.call<{ payoutIds: string[] }>('seedPayouts', input);
  emitEvent = (event: string, data?: Record<string, unknown>, options?: EmitOptions) =>
    this.call<{ eventId: string }>('emitEvent', event, data, options);
  sendUnknownEvent = (event?: string, clientUuid?: string) =>
    this.call<{ eventId: string }>('sendUnknownEvent', event, clientUuid);
  sendDuplicate = (eventId?: string) => this.call<void>('sendDuplicate', eventId);
  reorderNext = (count: number, clientUuid?: string) => this.call<void>('reorderNext', count, clientUuid);
  signNextWithPreviousSecret = (count?: number, clientUuid?: string) =>
    this.call<void>('signNextWithPreviousSecret', count, clientUuid);
  addFault = (fault: FaultSpec) => this.call<{ id: string }>('addFault', fault);
  clearFaults = () => this.call<void>('clearFaults');
  faults = () => this.call<ActiveFault[]>('faults');
  expireTokensNow = () => this.call<void>('expireTokensNow');
  counters = () => this.call<SandboxCounters>('counters');
  requestLog = () => this.call<RequestLogEntry[]>('requestLog');
  deliveries = () => this.call<DeliveryRecord[]>('deliveries');
  waitForDeliveries = (input?: { count?: number; event?: string; timeoutMs?: number }) =>
    this.call<DeliveryRecord[]>('waitForDeliveries', input);
  flushWebhooks = () => this.call<void>('flushWebhooks');
  reset = () => this.call<void>('reset');
}
