import type { SandboxControl } from './control.types';

/** Every control operation name; the HTTP control API is POST /__control/<name> { args: [...] }. */
export const CONTROL_OPERATIONS = [
  'createClient',
  'setWebhookUrl',
  'rotateWebhookSecret',
  'setAuthorizedBanks',
  'provisionClientWallet',
  'provisionClientVault',
  'setNextVerificationOutcome',
  'setUserVerificationOutcome',
  'completeLiveness',
  'simulateDeposit',
  'addLiquidationAddress',
  'updateVirtualAccount',
  'setDepositStatus',
  'seedRfi',
  'returnRfiItem',
  'setRfiStatus',
  'advancePayout',
  'emitEvent',
  'sendUnknownEvent',
  'sendDuplicate',
  'reorderNext',
  'signNextWithPreviousSecret',
  'addFault',
  'clearFaults',
  'faults',
  'expireTokensNow',
  'counters',
  'requestLog',
  'deliveries',
  'waitForDeliveries',
  'flushWebhooks',
  'reset',
] as const satisfies readonly (keyof SandboxControl)[];

export type ControlOperation = (typeof CONTROL_OPERATIONS)[number];
