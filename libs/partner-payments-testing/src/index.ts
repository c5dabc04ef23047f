/**
 * @partner-payments/testing: a contract-faithful simulator of the partner payments API (sandbox),
 * its control API, and webhook helpers for tests.
 */
export { startPartnerSandbox, SANDBOX_DEFAULTS } from './sandbox.server';
export type {
  PartnerSandbox,
  PartnerSandboxOptions,
  SandboxCredentials,
  SandboxCredentialsInput,
  SandboxLogger,
} from './sandbox.types';
export type * from './control.types';
export { SandboxControlClient } from './control.client';
export { CONTROL_OPERATIONS, type ControlOperation } from './control.operations';
export { signPartnerWebhook, verifyPartnerWebhook, SIGNATURE_HEADER } from './webhook.signing';
export * from './event.builders';
export type * from './state.types';
export { BASELINE_VERSION, PINNED_VERSION, RFI_VERSION } from './versioning.util';
export { validateMetadata, parseMetadataFilters, type FieldError } from './metadata.rules';
export { sampleFile, type SampleMime } from './sample-files.fixtures';
export { DEFAULT_DOCUMENT_TYPES, sanitizeFileName } from './file-sniff.util';
export {
  startWebhookReceiver,
  type ReceivedPartnerWebhook,
  type WebhookReceiver,
  type WebhookReceiverOptions,
} from './webhook.receiver';
