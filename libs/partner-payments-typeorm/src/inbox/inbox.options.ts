import type { PartnerDatabaseKind } from '../database/sql-dialect.util';
import type { CommitDurability } from '../database/unit-of-work.service';
import { PartnerInboxKeyRing, parseInboxKeys } from './at-rest/inbox-key-ring.util';

/** The `inbox` options of `PartnerPaymentsTypeOrmModule.forRoot` / `forRootAsync`'s factory. */
export interface PartnerTypeOrmInboxOptions {
  /**
   * The keys that seal webhook bodies at rest (AES-256-GCM): `id:base64` pairs separated by commas,
   * each key 32 bytes (`openssl rand -base64 32`). The first seals, every one opens: to rotate,
   * put the new key first and keep the old one until the start has logged that it re-sealed
   * every body. Or a `PartnerInboxKeyRing` built from them. Required.
   */
  sealingKeys: string | PartnerInboxKeyRing;
  /** Processing runs of an entry before it is left `dead` for an operator. 1 to 100. Default 5. */
  maxAttempts?: number;
  /**
   * PostgreSQL: longest wait for the insert recording a batch of deliveries, in ms; past it the
   * batch is answered 500 (not stored) and its connection closed. 100 to 25000. Default 10000, a
   * third of the partner's 30 s (spec 6.1.4: a delivery is never re-sent).
   */
  recordTimeoutMs?: number;
  /**
   * How the transactions that process entries commit (handlers' writes and the processed mark).
   * SQLite: 'relaxed' (default) or 'full'; PostgreSQL: 'full' only. Recording a delivery always
   * commits 'full' before the 2xx (spec 6.1.4). A relaxed SQLite commit is lost only with the host
   * (power loss, OS crash), so the app and the payout-status de-duplicator's memory (spec 6.4.7)
   * die with it and the entry, still pending, is processed again at the next start; on PostgreSQL
   * the app outlives a lost commit and the de-duplicator would suppress that second processing.
   */
  processingDurability?: CommitDurability;
  /** Days a processed entry is kept before `prune` deletes it (its key stays). 1 to 3650. Default 30. */
  retentionDays?: number;
  /** Entries per batch of a redelivery run (`redeliver`), which drains until nothing is due. 1 to 1000. Default 100. */
  redeliveryBatchSize?: number;
  /** Batches a redelivery run processes at once. 1 to 32. Default 4. */
  redeliveryConcurrency?: number;
  /** Most deliveries stored in one transaction (group commit). 1 to 10000. Default 256. */
  maxRecordRows?: number;
  /**
   * How long a delivery that finds no commit in flight waits for others to share its transaction,
   * in ms. 0 to 1000. Default 0: none (it leaves at the end of the event-loop turn, with whatever
   * arrived in it); deliveries arriving while a commit is in flight wait for it and share the next.
   */
  maxWaitMs?: number;
  /** Most fresh entries processed in one transaction. 1 to 10000. Default 256. */
  maxProcessRows?: number;
  /**
   * Processing transactions at once, each on its own batch. 1 to 32. Default 1. More helps
   * PostgreSQL, where each statement is a round trip (entries are held with SKIP LOCKED, so
   * batches never share one); on SQLite transactions run one at a time anyway.
   */
  processConcurrency?: number;
}

/** How deliveries share a commit and fresh entries a processing transaction (PartnerTypeOrmInboxStore). */
export interface PartnerTypeOrmInboxBatching {
  maxRecordRows: number;
  maxWaitMs: number;
  maxProcessRows: number;
  processConcurrency: number;
}

/** The inbox options with their defaults, validated. */
export interface PartnerTypeOrmInboxResolvedOptions {
  keys: PartnerInboxKeyRing;
  maxAttempts: number;
  recordTimeoutMs: number;
  processingDurability: CommitDurability;
  retentionDays: number;
  redeliveryBatchSize: number;
  redeliveryConcurrency: number;
  batching: PartnerTypeOrmInboxBatching;
}

/** Default of `inbox.recordTimeoutMs`. */
export const DEFAULT_INBOX_RECORD_TIMEOUT_MS = 10_000;

const INTEGERS = {
  maxAttempts: { min: 1, max: 100, default: 5 },
  recordTimeoutMs: { min: 100, max: 25_000, default: DEFAULT_INBOX_RECORD_TIMEOUT_MS },
  retentionDays: { min: 1, max: 3650, default: 30 },
  redeliveryBatchSize: { min: 1, max: 1000, default: 100 },
  redeliveryConcurrency: { min: 1, max: 32, default: 4 },
  maxRecordRows: { min: 1, max: 10_000, default: 256 },
  maxWaitMs: { min: 0, max: 1000, default: 0 },
  maxProcessRows: { min: 1, max: 10_000, default: 256 },
  processConcurrency: { min: 1, max: 32, default: 1 },
} as const;

/** The batching defaults (`inbox.maxRecordRows` and the others). */
export const DEFAULT_INBOX_BATCHING: PartnerTypeOrmInboxBatching = {
  maxRecordRows: INTEGERS.maxRecordRows.default,
  maxWaitMs: INTEGERS.maxWaitMs.default,
  maxProcessRows: INTEGERS.maxProcessRows.default,
  processConcurrency: INTEGERS.processConcurrency.default,
};

/**
 * Merges the defaults and validates; `fail(field, message)` throws the package's configuration
 * error naming `inbox.<field>`. The database kind decides the durability's default and bounds.
 */
export function resolveInboxOptions(
  options: PartnerTypeOrmInboxOptions,
  kind: PartnerDatabaseKind,
  fail: (field: string, message: string) => never,
): PartnerTypeOrmInboxResolvedOptions {
  if (typeof options !== 'object' || options === null) fail('inbox', 'must be an object');
  const keys = sealingKeys(options.sealingKeys, fail);
  const integers = {} as Record<keyof typeof INTEGERS, number>;
  for (const name of Object.keys(INTEGERS) as Array<keyof typeof INTEGERS>)
    integers[name] = integerOption(name, options[name], (message) => fail(`inbox.${name}`, message));
  const processingDurability = options.processingDurability ?? (kind === 'sqlite' ? 'relaxed' : 'full');
  if (processingDurability !== 'full' && processingDurability !== 'relaxed')
    fail('inbox.processingDurability', `must be 'full' or 'relaxed', got ${String(processingDurability)}`);
  if (kind === 'postgres' && processingDurability === 'relaxed')
    fail(
      'inbox.processingDurability',
      "must be 'full' on PostgreSQL: the app outlives a lost commit there and would not apply the entry again",
    );
  const { maxRecordRows, maxWaitMs, maxProcessRows, processConcurrency, ...rest } = integers;
  const batching = { maxRecordRows, maxWaitMs, maxProcessRows, processConcurrency };
  return { keys, processingDurability, ...rest, batching };
}

/**
 * The batching options of PartnerTypeOrmInboxStore's constructor with their defaults, validated as
 * the module's `inbox` option is: a 0 would leave the batch loops taking nothing, forever.
 */
export function resolveInboxBatching(
  given: Partial<PartnerTypeOrmInboxBatching> = {},
  fail: (field: string, message: string) => never,
): PartnerTypeOrmInboxBatching {
  const out = { ...DEFAULT_INBOX_BATCHING };
  for (const name of Object.keys(out) as Array<keyof PartnerTypeOrmInboxBatching>)
    out[name] = integerOption(name, given[name], (message) => fail(`batching.${name}`, message));
  return out;
}

/** `value` (its default when undefined) within the rule's bounds, or `fail`. */
function integerOption(
  name: keyof typeof INTEGERS,
  given: number | undefined,
  fail: (message: string) => never,
): number {
  const rule = INTEGERS[name];
  const value = given ?? rule.default;
  if (!Number.isInteger(value) || value < rule.min || value > rule.max)
    fail(`must be an integer from ${rule.min} to ${rule.max}, got ${String(value)}`);
  return value;
}

function sealingKeys(
  value: PartnerTypeOrmInboxOptions['sealingKeys'],
  fail: (field: string, message: string) => never,
): PartnerInboxKeyRing {
  if (value instanceof PartnerInboxKeyRing) return value;
  if (typeof value !== 'string')
    fail('inbox.sealingKeys', 'is required: `id:base64` keys separated by commas, or a PartnerInboxKeyRing');
  try {
    return new PartnerInboxKeyRing(parseInboxKeys(value));
  } catch (error) {
    // parseInboxKeys's messages never hold key material.
    return fail('inbox.sealingKeys', (error as Error).message);
  }
}
