/**
 * `@partner-payments/nestjs/inbox`: the webhook inbox contract, for a store on a database of your
 * own (docs/nestjs/inbox.md), and the in-memory store the module uses when none is given.
 */
export type {
  PartnerInboxStore,
  PartnerEnvelopeKind,
  InboxEventInput,
  InboxEntry,
  InboxEntryState,
  InboxRecordResult,
  InboxProcessOutcome,
  InboxDrainOptions,
  InboxDrainSummary,
} from './webhooks/inbox/inbox.store';
export { PartnerInMemoryInboxStore } from './webhooks/inbox/inbox-memory.store';
export type { PartnerInMemoryInboxStoreOptions } from './webhooks/inbox/inbox-memory.store';
