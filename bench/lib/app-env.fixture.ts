/**
 * What the forked reference app (bench/app-server.fixture.ts) is started with: the database, the sandbox
 * process as its partner with the sandbox's fixed test credentials and webhook secret, and cron
 * expressions (jobs that never fire unless a benchmark measures one).
 */
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SANDBOX_DEFAULTS } from '@partner-payments/testing';
import { startThrowawayPostgres } from '../../scripts/pg-throwaway';

/** 1 January at midnight: the job does not fire during a benchmark. */
export const NEVER = '0 0 0 1 1 *';

export const WEBHOOK_SECRET = SANDBOX_DEFAULTS.webhookSecret;

/**
 * INBOX_ENCRYPTION_KEYS for this run (required with PARTNER_BASE_URL: inbox bodies are
 * sealed at rest): one fresh key, also what a benchmark seals its seeded rows with.
 */
export const INBOX_KEYS = `bench:${randomBytes(32).toString('base64')}`;

export function appEnv(databaseUrl: string, partnerBaseUrl: string, crons: Record<string, string> = {}) {
  return {
    DATABASE_URL: databaseUrl,
    PARTNER_BASE_URL: partnerBaseUrl,
    PARTNER_ENV: 'sandbox',
    PARTNER_API_KEY: SANDBOX_DEFAULTS.apiKey,
    PARTNER_CLIENT_ID: SANDBOX_DEFAULTS.clientId,
    PARTNER_PASSWORD: SANDBOX_DEFAULTS.password,
    PARTNER_CLIENT_UUID: SANDBOX_DEFAULTS.clientUuid,
    PARTNER_WEBHOOK_SECRET: WEBHOOK_SECRET,
    INBOX_ENCRYPTION_KEYS: INBOX_KEYS,
    RECONCILE_CRON: NEVER,
    DEPOSIT_RECONCILE_CRON: NEVER,
    INBOX_REDELIVERY_CRON: NEVER,
    VERSION_PIN_CRON: NEVER,
    ...crons,
  };
}

export interface BenchDatabase {
  kind: 'sqlite' | 'postgres';
  url: string;
  /** How it is set up, for the figure's notes. */
  describe: string;
  close(): Promise<void>;
}

/** A SQLite file in a fresh temp dir (the app sets WAL and synchronous=FULL). */
export async function sqliteDatabase(prefix: string): Promise<BenchDatabase> {
  const dir = await mkdtemp(join(tmpdir(), `${prefix}-`));
  return {
    kind: 'sqlite',
    url: `sqlite:${join(dir, 'app.sqlite')}`,
    describe: 'SQLite file in a temp dir, WAL, synchronous=FULL',
    close: () => rm(dir, { recursive: true, force: true }),
  };
}

/** A throwaway PostgreSQL 15 cluster with fsync ON (durable, unlike the test clusters). */
export async function postgresDatabase(database: string): Promise<BenchDatabase> {
  const pg = await startThrowawayPostgres({ database, durable: true });
  return {
    kind: 'postgres',
    url: pg.url,
    describe: 'throwaway PostgreSQL 15 (scripts/pg-throwaway.ts), fsync on, synchronous_commit on',
    close: () => pg.stop(),
  };
}
