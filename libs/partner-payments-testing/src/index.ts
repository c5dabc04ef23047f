/**
 * @partner-payments/testing: a contract-faithful simulator of the partner payments API (sandbox),
 * its control API, webhook helpers and the conformance kit, for tests.
 *
 * An explicit list of what a user needs; every other module stays internal, importable
 * by this repository's own code and tests by path.
 */

// The sandbox server: start, stop (`close()`) and its options.
export { startPartnerSandbox, SANDBOX_DEFAULTS } from './server/sandbox-server.service';
export type {
  PartnerSandbox,
  PartnerSandboxOptions,
  SandboxCredentials,
  SandboxCredentialsInput,
  SandboxLogger,
} from './server/sandbox.types';

// The control API (in process: `sandbox.control`; over HTTP: PartnerSandboxControlClient) and the
// shapes its operations take and answer.
export { PartnerSandboxControlClient } from './control/control.client';
export type {
  SandboxControl,
  FaultKind,
  FaultSpec,
  ActiveFault,
  ResourceKind,
  SandboxCounters,
  RequestLogEntry,
  DeliveryRecord,
} from './control/control.types';
export type {
  CreateClientInput,
  SandboxClientInfo,
  EmitOptions,
  RotateWebhookSecretOptions,
  WebhookSecretRotation,
  DepositInput,
  DepositRefundOptions,
  DepositRefund,
  VirtualAccountPatch,
  SeedRfiInput,
  SeedRfiItemInput,
  SeededRfi,
  PayoutStep,
  PayoutStepName,
  PayoutView,
  SeedPayoutsInput,
} from './control/control-inputs.types';
export type {
  ClientVault,
  ClientWallet,
  DepositStatus,
  Metadata,
  PaymentRail,
  UserStatus,
  VerificationOutcome,
} from './server/state.types';
export type { PayoutStatus } from './server/payout-state.types';
export type { AnswerType, RfiDocument, RfiItemRecord, RfiStatus } from './server/rfi-state.types';

// Webhooks: signing as the partner does, a receiver for tests, and event bodies.
export { signPartnerWebhook, verifyPartnerWebhook, SIGNATURE_HEADER } from './webhooks/webhook-signing.util';
export {
  startWebhookReceiver,
  type ReceivedPartnerWebhook,
  type WebhookReceiver,
  type WebhookReceiverOptions,
} from './webhooks/webhook-receiver.service';
export {
  buildFlatEvent,
  buildUserCreated,
  buildUserUpdated,
  buildUserStatusChanged,
  buildUserVerificationAccepted,
  buildUserVerificationFailed,
  buildUserLivenessCompleted,
  buildVirtualAccountCreated,
  buildDepositSource,
  buildDepositFundsReceived,
  buildPayoutProgress,
  buildPayoutTerminal,
  buildPayoutStatusChanged,
  type FlatPartnerEvent,
  type V2PartnerEvent,
  type PartnerEventBody,
  type UserEventInput,
  type DepositRail,
  type DepositEventInput,
  type PayoutEventInput,
  type TerminalPayoutEvent,
  type PayoutStatusChangedInput,
} from './webhooks/event-builders.util';

// Fixtures: sample documents for uploads.
export { sampleFile, type SampleMime } from './resources/rfis/sample-files.util';

// The conformance kit: run it, its options, its report, the shipped probes and custom probes.
export { runConformance } from './conformance/conformance.service';
export { renderReport, reportJson } from './conformance/report-render.util';
export { sandboxConformanceHooks } from './conformance/sandbox-hooks.client';
export { CONFORMANCE_PROBES } from './conformance/probes';
export { t as probeShape, type Shape as ProbeShape } from './conformance/shape.util';
export type {
  ConformanceOptions,
  ConformanceCredentials,
  ConformanceHooks,
  ConformanceProbe,
  ProbeContext,
  ProbeRequest,
  ProbeSource,
  Observation as ProbeObservation,
} from './conformance/probe.types';
export type {
  ConformanceWebhookOptions,
  PreviousTargetWatch,
  UserCreatedDelivery,
} from './conformance/webhooks/webhook.types';
export type {
  ConformanceReport,
  CreatedResource,
  ProbeArea,
  ProbeOutcome,
  ProbeResult,
} from './conformance/report.types';
