/**
 * @partner-payments/nestjs/inbox: the webhook inbox's store contract, for a store on another
 * database than @partner-payments/typeorm's (docs/nestjs/inbox.md), and the in-memory store
 * (tests, a single process that may lose events on a crash).
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
