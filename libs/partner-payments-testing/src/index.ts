/**
 * @partner-payments/testing: a contract-faithful simulator of the partner payments API (sandbox),
 * its control API, and webhook helpers for tests.
 */
export { startPartnerSandbox, SANDBOX_DEFAULTS } from './server/sandbox.server';
export type {
  PartnerSandbox,
  PartnerSandboxOptions,
  SandboxCredentials,
  SandboxCredentialsInput,
  SandboxLogger,
} from './server/sandbox.types';
export type * from './control/control.types';
export { SandboxControlClient } from './control/control.client';
export { CONTROL_OPERATIONS, type ControlOperation } from './control/control.operations';
export { signPartnerWebhook, verifyPartnerWebhook, SIGNATURE_HEADER } from './webhooks/webhook.signing';
export * from './webhooks/event.builders';
export type * from './server/state.types';
export { BASELINE_VERSION, PINNED_VERSION, RFI_VERSION } from './server/versioning.util';
export { validateMetadata, parseMetadataFilters, type FieldError } from './resources/metadata.rules';
export { sampleFile, type SampleMime } from './resources/rfis/sample-files.fixtures';
export { DEFAULT_DOCUMENT_TYPES, sanitizeFileName } from './resources/rfis/file-sniff.util';
export {
  startWebhookReceiver,
  type ReceivedPartnerWebhook,
  type WebhookReceiver,
  type WebhookReceiverOptions,
} from './webhooks/webhook.receiver';
export {
  runConformance,
  runConformanceCli,
  sandboxConformanceHooks,
  renderReport,
  reportJson,
  fidelityTable,
  CONFORMANCE_PROBES,
  t as probeShape,
  type Shape as ProbeShape,
  type ConformanceOptions,
  type ConformanceReport,
  type ConformanceProbe,
  type ConformanceHooks,
  type ConformanceCredentials,
  type ProbeResult,
  type ProbeContext,
  type ProbeRequest,
  type Observation as ProbeObservation,
  type ProbeSource,
  type CreatedResource,
} from './conformance';
