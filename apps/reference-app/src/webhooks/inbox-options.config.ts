import { resolve } from 'node:path';
import { Logger } from '@nestjs/common';
import {
  PartnerTypeOrmConfigurationError,
  generateInboxKeyEntry,
  readOrCreateInboxKeyFile,
  type PartnerTypeOrmInboxOptions,
} from '@partner-payments/typeorm';
import { ConfigValidationError, type AppConfig } from '../config/app.config';

/** The environment variable behind each `inbox` option the app sets, for errors found at boot. */
const VARIABLES: Record<string, string> = {
  'inbox.sealingKeys': 'INBOX_ENCRYPTION_KEYS',
  'inbox.maxAttempts': 'INBOX_MAX_ATTEMPTS',
  'inbox.recordTimeoutMs': 'INBOX_RECORD_TIMEOUT_MS',
  'inbox.processingDurability': 'INBOX_PROCESSING_DURABILITY',
  'inbox.retentionDays': 'INBOX_RETENTION_DAYS',
  'inbox.redeliveryBatchSize': 'INBOX_REDELIVERY_BATCH_SIZE',
  'inbox.redeliveryConcurrency': 'INBOX_REDELIVERY_CONCURRENCY',
};

/**
 * PostgreSQL: each statement is a round trip, so several processing transactions at once (the
 * store holds entries with SKIP LOCKED), and smaller batches, so an entry does not wait for a long
 * one (inbox lag p99 < 1 s while ingesting at full rate).
 */
const POSTGRES_BATCHING = { processConcurrency: 4, maxProcessRows: 64 };
/**
 * SQLite: better-sqlite3 is synchronous, so a processing batch runs its handlers back to back
 * without giving the event loop back, every delivery waiting behind it (the ingest p99). Batches
 * of 64 hold it a quarter as long as 256; with the processing commits relaxed
 * (INBOX_PROCESSING_DURABILITY) the extra commits cost no fsync.
 */
const SQLITE_BATCHING = { maxProcessRows: 64 };

/** The app's configuration (INBOX_*) as @partner-payments/typeorm's `inbox` options. */
export function appInboxOptions(
  config: AppConfig,
  logger = new Logger('InboxKeys'),
): PartnerTypeOrmInboxOptions {
  return {
    sealingKeys: sealingKeys(config, logger),
    maxAttempts: config.inbox.maxAttempts,
    recordTimeoutMs: config.inbox.recordTimeoutMs,
    processingDurability: config.inbox.processingDurability,
    retentionDays: config.inbox.retentionDays,
    redeliveryBatchSize: config.inbox.redeliveryBatchSize,
    redeliveryConcurrency: config.inbox.redeliveryConcurrency,
    ...(config.database.kind === 'postgres' ? POSTGRES_BATCHING : SQLITE_BATCHING),
  };
}

/**
 * An inbox option refused at boot (a sealing key missing that stored bodies need, say), named by
 * its variable, so main.ts prints the one line it prints for any bad variable; null for any other error.
 */
export function inboxConfigurationProblem(error: unknown): ConfigValidationError | null {
  if (!(error instanceof PartnerTypeOrmConfigurationError)) return null;
  const variable = VARIABLES[error.field];
  return variable ? new ConfigValidationError([{ variable, message: error.reason }]) : null;
}

/**
 * INBOX_ENCRYPTION_KEYS when set (required with a real partner: the configuration refuses to load
 * without it). Unset, the app runs the embedded-sandbox demo (`npm start` with nothing
 * configured), where nothing real is stored: it keeps its key in a file beside its SQLite file
 * (mode 0600), made at the first start and reused at the next, so what the demo stored stays
 * readable across restarts. One log line says which.
 */
function sealingKeys(config: AppConfig, logger: Logger): PartnerTypeOrmInboxOptions['sealingKeys'] {
  if (config.inbox.keyRing) return config.inbox.keyRing;
  if (config.partner.baseUrl !== null) {
    // loadAppConfig refuses this already; kept so the rule holds whatever builds the config.
    throw new ConfigValidationError([
      { variable: 'INBOX_ENCRYPTION_KEYS', message: 'is required when PARTNER_BASE_URL is set' },
    ]);
  }
  const db = config.database;
  if (db.kind === 'sqlite' && db.path === ':memory:') {
    logger.log(
      'INBOX_ENCRYPTION_KEYS is not set: the embedded-sandbox demo seals inbox bodies with a key made for this process (in-memory database)',
    );
    return generateInboxKeyEntry('demo');
  }
  const file =
    db.kind === 'sqlite' ? `${db.path}.inbox-key` : resolve('data', 'embedded-sandbox-postgres.inbox-key');
  let found: { sealingKeys: string; created: boolean };
  try {
    found = readOrCreateInboxKeyFile(file, 'demo');
  } catch (error) {
    throw new ConfigValidationError([
      {
        variable: 'INBOX_ENCRYPTION_KEYS',
        message: `is not set and the demo ${(error as Error).message}; set the variable or delete the file`,
      },
    ]);
  }
  logger.log(
    `INBOX_ENCRYPTION_KEYS is not set: the embedded-sandbox demo seals inbox bodies with the key in ${file} (${found.created ? 'created now, mode 0600' : 'reused'}); set INBOX_ENCRYPTION_KEYS for real data`,
  );
  return found.sealingKeys;
}
